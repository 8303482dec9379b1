// The catalog of filters and the route tables agree.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FILTERS } from "../../src/filters/catalog.js";
import { allRoutes } from "../../src/routes/registry.js";
import { activeRegistry } from "../../src/routing.js";

test("every filter in the catalog serves at least one route", () => {
  const used = new Set(allRoutes().map((r) => r.filter));
  for (const id of FILTERS.keys()) assert.ok(used.has(id), `filter ${id} has no route`);
});

test("the active registry holds exactly the routes whose filter the catalog has", () => {
  const active = [...activeRegistry().byTool.values()]
    .flat()
    .map((r) => r.id)
    .sort();
  assert.deepEqual(
    active,
    allRoutes()
      .filter((r) => FILTERS.has(r.filter))
      .map((r) => r.id)
      .sort(),
  );
});
