import type { RouteFamily } from "./types.js";

export const files: RouteFamily = {
  tools: {},
  routes: [
    { id: "ls", tool: "ls", filter: "ls", savings: 65, pipeSafe: false },
    { id: "tree", tool: "tree", filter: "tree", savings: 60, pipeSafe: false },
    { id: "find", tool: "find", filter: "find", savings: 70, pipeSafe: false, indirectIf: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprintf", "-fls"] },
    { id: "grep", tool: "grep", filter: "grep", savings: 70, pipeSafe: false },
    { id: "rg", tool: "rg", filter: "grep", savings: 70, pipeSafe: false },
    { id: "cat", tool: "cat", filter: "content", savings: 20, pipeSafe: false },
    { id: "head", tool: "head", filter: "content", savings: 10, pipeSafe: false },
    { id: "tail", tool: "tail", filter: "content", savings: 10, pipeSafe: false },
    { id: "wc", tool: "wc", filter: "wc", savings: 30, pipeSafe: false },
    { id: "env", tool: "env", filter: "env", savings: 40, pipeSafe: false },
    { id: "printenv", tool: "printenv", filter: "env", savings: 40, pipeSafe: false },
  ],
};
