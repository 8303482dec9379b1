// What a hook decided about a command: the host's answer is made from it, and
// the accounting records it.
export type Outcome =
  /** `ask`: a rule of the host asks for this command; the answer must make the host ask (or say nothing), never leave it to the host's rules, which cannot see `rtk …` as the command. */
  | { kind: "rewrite"; command: string; allow: boolean; ask: boolean }
  /** The host's own deny runs on the original command: say nothing. */
  | { kind: "defer-deny" }
  /** A deny the host cannot see itself (the agent typed `rtk`): answer with the host's deny. */
  | { kind: "active-deny"; reason: string }
  | { kind: "pass" };
