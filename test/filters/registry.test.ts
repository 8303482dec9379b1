// The list the rewrite path reads and the filters the runtime loads are the same set.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AVAILABLE_FILTERS } from "../../src/filters/available.js";
import { FILTERS } from "../../src/filters/index.js";
import { allRoutes } from "../../src/routes/registry.js";

test("every available filter id has an implementation and the other way round", () => {
  assert.deepEqual([...AVAILABLE_FILTERS].sort(), [...FILTERS.keys()].sort());
});

test("every implemented filter serves at least one route", () => {
  const used = new Set(allRoutes().map((r) => r.filter));
  for (const id of FILTERS.keys()) assert.ok(used.has(id), `filter ${id} has no route`);
});
