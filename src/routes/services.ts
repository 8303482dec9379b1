// Containers, clusters, GitHub and the network.
import type { RouteFamily } from "./types.js";

export const services: RouteFamily = {
  tools: {
    docker: { valueOptions: ["-H", "--host", "--context", "-c", "--config", "--log-level", "-l"], flagOptions: ["-D", "--debug"] },
    kubectl: { valueOptions: ["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"], flagOptions: ["-A", "--all-namespaces"] },
    gh: { valueOptions: ["-R", "--repo"] },
  },
  routes: [
    { id: "docker.ps", tool: "docker", sub: [["ps", "images"]], filter: "table.docker", savings: 60, pipeSafe: false },
    { id: "docker.logs", tool: "docker", sub: ["logs"], filter: "logs", savings: 60, pipeSafe: false },
    { id: "docker.compose.ps", tool: "docker", sub: ["compose", "ps"], filter: "table.docker", savings: 60, pipeSafe: false },
    { id: "docker.compose.logs", tool: "docker", sub: ["compose", "logs"], filter: "logs", savings: 60, pipeSafe: false },
    { id: "kubectl.get", tool: "kubectl", sub: [["get", "describe"]], filter: "kubectl", savings: 60, pipeSafe: false },
    { id: "kubectl.logs", tool: "kubectl", sub: ["logs"], filter: "logs", savings: 60, pipeSafe: false },
    {
      id: "gh.pr",
      tool: "gh",
      sub: [
        ["pr", "issue", "run"],
        ["list", "view", "checks", "status"],
      ],
      filter: "gh",
      savings: 60,
      pipeSafe: false,
    },
    { id: "curl", tool: "curl", filter: "http", savings: 50, pipeSafe: false },
    { id: "wget", tool: "wget", filter: "http", savings: 70, pipeSafe: false },
  ],
};
