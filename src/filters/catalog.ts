// Every built-in filter. A filter carries its own id; routes name filters by id.
// Adding a filter is adding its file and a line here (a built-in declarative
// filter is a file in ./builtin and nothing else).
import { cargo } from "./builds/cargo.js";
import { eslint, stylelint } from "./builds/stylish.js";
import { biome } from "./builds/biome.js";
import { goBuild, golangciLint } from "./builds/go.js";
import { buildLog } from "./builds/log.js";
import { hadolint, markdownlint, rubocop } from "./builds/misc.js";
import { mypy } from "./builds/mypy.js";
import { pyright } from "./builds/pyright.js";
import { ruff } from "./builds/ruff.js";
import { rustfmt } from "./builds/rustfmt.js";
import { shellcheck } from "./builds/shellcheck.js";
import { oxlint } from "./builds/oxlint.js";
import { prettier } from "./builds/prettier.js";
import { tsc } from "./builds/tsc.js";
import { content } from "./files/content.js";
import { env } from "./files/env.js";
import { find } from "./files/find.js";
import { grep } from "./files/grep.js";
import { ls } from "./files/ls.js";
import { tree } from "./files/tree.js";
import { wc } from "./files/wc.js";
import { gitAction } from "./git/action.js";
import { gitDiff } from "./git/diff.js";
import { gitLog } from "./git/log.js";
import { gitStatus } from "./git/status.js";
import { bunTest } from "./tests/bun.js";
import { cargoTest } from "./tests/cargo.js";
import { denoTest } from "./tests/deno.js";
import { dotnetTest } from "./tests/dotnet.js";
import { goTest } from "./tests/go.js";
import { gradleTest } from "./tests/gradle.js";
import { jest } from "./tests/jest.js";
import { mavenTest } from "./tests/maven.js";
import { mocha } from "./tests/mocha.js";
import { nodeTest } from "./tests/node-test.js";
import { npmTest } from "./tests/npm.js";
import { playwrightTest } from "./tests/playwright.js";
import { phpunit } from "./tests/phpunit.js";
import { pytest } from "./tests/pytest.js";
import { rspec } from "./tests/rspec.js";
import { vitest } from "./tests/vitest.js";
import { dockerBuild } from "./services/docker-build.js";
import { gh, ghView } from "./services/gh.js";
import { ghLog } from "./services/gh-log.js";
import { ghApi } from "./services/gh-api.js";
import { dockerRun } from "./services/docker-run.js";
import { aws } from "./services/aws.js";
import { awsLs } from "./services/aws-ls.js";
import { kubectlAction } from "./services/kubectl-action.js";
import { kubectlDescribe } from "./services/kubectl-describe.js";
import { http } from "./services/http.js";
import { logs } from "./services/logs.js";
import { helmRelease } from "./services/helm.js";
import { terraform } from "./services/terraform.js";
import { mysql, psql } from "./services/sql.js";
import { dockerTable, helmTable, kubectlTable } from "./services/table.js";
import { azDeployment, azTable } from "./services/az.js";
import { npmAudit, npmInstall, npmOutdated, packageTree } from "./packages/npm.js";
import { bunInstall, pnpmInstall, yarnInstall } from "./packages/js.js";
import { pipInstall, pipList, poetryInstall, uvInstall } from "./packages/python.js";
import { aptInstall, bundleInstall, cargoInstall, cargoPackages, composerInstall, goModules } from "./packages/system.js";
import { LIBRARY_CATALOG } from "./library.js";
import type { Filter } from "./types.js";

const CATALOG: readonly Filter[] = [
  gitStatus,
  gitLog,
  gitDiff,
  gitAction,
  ls,
  tree,
  find,
  grep,
  content,
  wc,
  env,
  cargoTest,
  pytest,
  vitest,
  jest,
  mocha,
  nodeTest,
  goTest,
  npmTest,
  mavenTest,
  gradleTest,
  bunTest,
  denoTest,
  playwrightTest,
  rspec,
  phpunit,
  dotnetTest,
  tsc,
  eslint,
  cargo,
  buildLog,
  stylelint,
  prettier,
  biome,
  oxlint,
  mypy,
  pyright,
  ruff,
  rustfmt,
  goBuild,
  golangciLint,
  shellcheck,
  hadolint,
  rubocop,
  markdownlint,
  dockerTable,
  kubectlTable,
  helmTable,
  azTable,
  azDeployment,
  helmRelease,
  gh,
  ghView,
  ghLog,
  ghApi,
  dockerRun,
  terraform,
  http,
  logs,
  dockerBuild,
  kubectlAction,
  aws,
  awsLs,
  kubectlDescribe,
  psql,
  mysql,
  npmInstall,
  pnpmInstall,
  yarnInstall,
  bunInstall,
  packageTree,
  npmOutdated,
  npmAudit,
  pipInstall,
  pipList,
  uvInstall,
  poetryInstall,
  cargoPackages,
  cargoInstall,
  goModules,
  bundleInstall,
  composerInstall,
  aptInstall,
  ...LIBRARY_CATALOG,
];

export const FILTERS: ReadonlyMap<string, Filter> = new Map(CATALOG.map((f) => [f.id, f]));

export const FILTER_IDS: ReadonlySet<string> = new Set(FILTERS.keys());
