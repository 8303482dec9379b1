// `curl` and `wget`: the response as the tool gives it, without its progress.
// The body (stdout) is kept verbatim — JSON as it came, a page as it came —
// and only a body past the content budget is cut, head and tail with the
// exact count between. On stderr, curl's progress meter goes (its header
// rows and every rewritten row, also when a verbose line follows it on the
// same row); with `-v` the connection chatter (`* Trying…`, TLS notes, data
// sizes) goes but the request line, the status lines and the response
// headers stay, as does any `*` line that reports a failure. wget's
// resolving and connecting lines, its dot progress and blank lines go; the
// request lines, every status (`HTTP request sent… 200 OK`), the redirects
// (`Location: … [following]`), the headers of `-S`, where the body went and
// errors stay. A line not recognised is kept.
import { limitsOf } from "../budget.js";
import { LineWindow } from "../kit.js";
import { linesText, type Filter, type FilterRun } from "../types.js";

/** A row of curl's meter: twelve columns of counts, percentages, speeds and times. */
const METER_ROW =
  /^\s*\d+\s+[\d.]+[kMGTP]?\s+\d+\s+[\d.]+[kMGTP]?\s+\d+\s+[\d.]+[kMGTP]?\s+[\d.]+[kMGTP]?\s+[\d.]+[kMGTP]?\s+(?:--:--:--|[\d:]+)\s+(?:--:--:--|[\d:]+)\s+(?:--:--:--|[\d:]+)\s+[\d.]+[kMGTP]?/;
const METER_HEAD = /^\s*% Total\s+% Received % Xferd\s+Average Speed|^\s+Dload\s+Upload\s+Total\s+Spent\s+Left\s+Speed$/;
/** curl's `-v` lines that say something went wrong. */
const FAILURE = /fail|error|refused|could not|couldn't|timed out|timeout|certificate|denied|reset|closing connection|unsupported|not found|expired/i;
/** wget's lines that are neither the response nor its result. */
const WGET_CHATTER =
  /^(?:Resolving \S+ \(.*\)\.\.\. |Connecting to \S+.*\.\.\. connected\.$|Reusing existing connection to |\s*\d+[KMG] [ .,]+(?:\s+\d+%)?(?:\s+[\d.]+[KMG]?(?:=[\d.]+[smh])?)?(?:\s+[\dmhs.]+)?\s*$)/;

export const http: Filter = {
  id: "http",
  lineForm: () => "verbatim",
  start(input, ctx): FilterRun {
    const tool = input.argv[input.toolIndex]!.replace(/^.*\//, "");
    const body = LineWindow.within(limitsOf(ctx).content);
    const err: string[] = [];
    return {
      line(stream, raw) {
        if (stream === "out") return body.push(raw);
        // What a terminal would show of a row rewritten in place.
        const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
        let text = line.slice(line.lastIndexOf("\r") + 1);
        if (tool === "wget") {
          if (text.trim() === "" || WGET_CHATTER.test(text)) return;
          return void err.push(text);
        }
        if (METER_HEAD.test(text)) return;
        const m = METER_ROW.exec(text);
        if (m) text = text.slice(m[0].length);
        if (text.trim() === "") return;
        if (/^[{}] \[\d+ bytes data\]$/.test(text)) return;
        if (text.startsWith("* ") && !FAILURE.test(text)) return;
        err.push(text);
      },
      end() {
        return { stdout: linesText(body.lines(ctx.recall)), stderr: linesText(err) };
      },
    };
  },
};
