// What the launcher (bin/rtk) set aside for rtk's own start, put back for every
// process rtk starts: the user's NODE_EXTRA_CA_CERTS, which would have cost rtk's
// Node a certificate bundle read at start-up.
export function restoreLauncherEnv(env: NodeJS.ProcessEnv = process.env): void {
  const certs = env["RTK_NODE_EXTRA_CA_CERTS"];
  if (certs === undefined) return;
  env["NODE_EXTRA_CA_CERTS"] = certs;
  delete env["RTK_NODE_EXTRA_CA_CERTS"];
}
