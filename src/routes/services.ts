// Containers, clusters, GitHub, the network and infrastructure.
import type { RouteFamily } from "./types.js";

const DOCKER = { valueOptions: ["-H", "--host", "--context", "-c", "--config", "--log-level", "-l"], flagOptions: ["-D", "--debug"] };

export const services: RouteFamily = {
  tools: {
    docker: DOCKER,
    podman: { valueOptions: ["--connection", "-c", "--url", "--root", "--runroot", "--log-level"], flagOptions: ["--remote", "-r"] },
    kubectl: { valueOptions: ["-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server"], flagOptions: ["-A", "--all-namespaces"] },
    helm: { valueOptions: ["-n", "--namespace", "--kube-context", "--kubeconfig"] },
    gh: { valueOptions: ["-R", "--repo"] },
    terraform: { joinedValueOptions: ["-chdir"] },
    tofu: { joinedValueOptions: ["-chdir"] },
    az: { valueOptions: ["--subscription"], flagOptions: ["--only-show-errors", "--debug", "--verbose"] },
    aws: {
      valueOptions: ["--profile", "--region", "--output", "--endpoint-url", "--query", "--color", "--ca-bundle", "--cli-read-timeout", "--cli-connect-timeout", "--cli-binary-format"],
      flagOptions: ["--debug", "--no-verify-ssl", "--no-paginate", "--no-sign-request", "--no-cli-pager", "--cli-auto-prompt", "--no-cli-auto-prompt"],
    },
  },
  routes: [
    { id: "docker.ps", tool: "docker", sub: [["ps", "images"]], filter: "table.docker", savings: 60, pipeSafe: false },
    {
      id: "docker.container.ls",
      tool: "docker",
      sub: [
        ["container", "image"],
        ["ls", "list", "ps"],
      ],
      filter: "table.docker",
      savings: 60,
      pipeSafe: false,
    },
    { id: "docker.logs", tool: "docker", sub: ["logs"], filter: "logs", savings: 60, pipeSafe: false },
    { id: "docker.build", tool: "docker", sub: [["build", "pull"]], filter: "docker.build", savings: 80, pipeSafe: false },
    {
      id: "docker.buildx.build",
      tool: "docker",
      sub: [
        ["buildx", "image"],
        ["build", "pull"],
      ],
      filter: "docker.build",
      savings: 80,
      pipeSafe: false,
    },
    { id: "docker.compose.build", tool: "docker", sub: ["compose", ["build", "pull"]], filter: "docker.build", savings: 80, pipeSafe: false },
    { id: "podman.build", tool: "podman", sub: [["build", "pull"]], filter: "docker.build", savings: 80, pipeSafe: false },
    { id: "docker.compose.ps", tool: "docker", sub: ["compose", "ps"], filter: "table.docker", savings: 60, pipeSafe: false },
    { id: "docker.compose.logs", tool: "docker", sub: ["compose", "logs"], filter: "logs", savings: 60, pipeSafe: false },
    { id: "docker-compose.ps", tool: "docker-compose", sub: ["ps"], filter: "table.docker", savings: 60, pipeSafe: false },
    { id: "docker-compose.logs", tool: "docker-compose", sub: ["logs"], filter: "logs", savings: 60, pipeSafe: false },
    { id: "podman.ps", tool: "podman", sub: [["ps", "images"]], filter: "table.docker", savings: 60, pipeSafe: false },
    { id: "podman.logs", tool: "podman", sub: ["logs"], filter: "logs", savings: 60, pipeSafe: false },
    { id: "kubectl.get", tool: "kubectl", sub: ["get"], filter: "table.kubectl", savings: 60, pipeSafe: false },
    { id: "kubectl.describe", tool: "kubectl", sub: ["describe"], filter: "kubectl.describe", savings: 35, pipeSafe: false },
    { id: "kubectl.logs", tool: "kubectl", sub: ["logs"], filter: "logs", savings: 60, pipeSafe: false },
    { id: "kubectl.apply", tool: "kubectl", sub: [["apply", "create", "delete", "replace"]], filter: "kubectl.action", savings: 60, pipeSafe: false },
    { id: "kubectl.rollout", tool: "kubectl", sub: ["rollout", ["status", "restart", "undo"]], filter: "kubectl.action", savings: 60, pipeSafe: false },
    { id: "helm.release", tool: "helm", sub: [["status", "install", "upgrade"]], filter: "helm.release", savings: 40, pipeSafe: false },
    { id: "helm.list", tool: "helm", sub: [["list", "ls"]], filter: "table.helm", savings: 50, pipeSafe: false },
    {
      id: "gh.list",
      tool: "gh",
      sub: [
        ["pr", "issue", "run", "release"],
        ["list", "ls", "checks"],
      ],
      filter: "gh",
      savings: 60,
      pipeSafe: false,
    },
    // gh prints the pull request's patch as git does: the diff filter reads it.
    { id: "gh.pr.diff", tool: "gh", sub: ["pr", "diff"], filter: "git.diff", savings: 40, pipeSafe: false },
    { id: "gh.run.log", tool: "gh", sub: ["run", "view"], filter: "gh.log", savings: 40, pipeSafe: false },
    { id: "gh.view", tool: "gh", sub: [["pr", "issue", "release"], ["view"]], filter: "gh.view", savings: 15, pipeSafe: false },
    { id: "terraform.plan", tool: "terraform", sub: [["plan", "apply", "destroy", "init"]], filter: "terraform", savings: 75, pipeSafe: false },
    { id: "tofu.plan", tool: "tofu", sub: [["plan", "apply", "destroy", "init"]], filter: "terraform", savings: 75, pipeSafe: false },
    { id: "aws.s3", tool: "aws", sub: ["s3", ["cp", "sync", "mv", "rm"]], filter: "aws", savings: 60, pipeSafe: false },
    { id: "aws.logs.tail", tool: "aws", sub: ["logs", "tail"], filter: "logs", savings: 50, pipeSafe: false },
    // Any other command: its table output loses the box drawing; JSON and text print as they are. Prompts and sessions keep the terminal.
    {
      id: "aws",
      tool: "aws",
      filter: "aws",
      savings: 30,
      pipeSafe: false,
      indirectIf: ["configure", "sso", "login", "start-session", "execute-command", "wait", "help", "--cli-auto-prompt", "--generate-cli-skeleton"],
    },
    // az's tables (gcloud's, padded by two spaces only, cost no more tokens than a compact form would: not routed). Logins, sessions and watches keep the terminal.
    { id: "az", tool: "az", filter: "table.az", savings: 35, pipeSafe: false, indirectIf: ["login", "ssh", "interactive", "configure", "init", "serial-console", "tunnel", "--watch"] },
    { id: "psql", tool: "psql", filter: "sql.psql", savings: 40, pipeSafe: false },
    { id: "mysql", tool: "mysql", filter: "sql.mysql", savings: 50, pipeSafe: false },
    { id: "mariadb", tool: "mariadb", filter: "sql.mysql", savings: 50, pipeSafe: false },
    { id: "curl", tool: "curl", filter: "http", savings: 50, pipeSafe: false },
    { id: "wget", tool: "wget", filter: "http", savings: 70, pipeSafe: false },
  ],
};
