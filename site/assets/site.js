// Green Tokens: the site's one script. It sorts the index table and runs the
// grid calculator; every page reads fine without it.
"use strict";

// dec1 prints x to 1 decimal as the published pages do: rounded once, half
// to even on x's exact binary value (Go's strconv.FormatFloat), with
// thousands separators. toFixed also rounds the exact binary value, but
// sends an exact tie up; a tie at 1 decimal is a binary value k/4 with k odd.
function dec1(x) {
  let s;
  if (Number.isInteger(x * 4) && !Number.isInteger(x * 2)) {
    let n = Math.floor(x * 10);
    if (n % 2 !== 0) n += 1;
    s = (n / 10).toFixed(1);
  } else {
    s = x.toFixed(1);
  }
  if (s === "-0.0") s = "0.0";
  const [i, f] = s.split(".");
  return i.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + "." + f;
}

function sortTable(table) {
  const heads = table.querySelectorAll("thead th[data-col]");
  heads.forEach((th) => {
    th.querySelector("button").addEventListener("click", () => {
      const col = Number(th.dataset.col);
      const asc = th.getAttribute("aria-sort") !== "ascending";
      heads.forEach((h) => h.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      const num = th.dataset.type === "num";
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      const key = (r) => r.cells[col].dataset.sort;
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        // Rows without a value go last either way.
        if (x === "" || y === "") return (x === "") - (y === "");
        let c = num ? Number(x) - Number(y) : x.localeCompare(y, "en");
        if (!asc) c = -c;
        return c || Number(a.dataset.order) - Number(b.dataset.order);
      });
      rows.forEach((r) => body.appendChild(r));
    });
  });
  Array.from(table.tBodies[0].rows).forEach((r, i) => { r.dataset.order = String(i); });
}

// nearestBatch is the configuration of rows whose unrounded average running
// batch is nearest to batch, ties to the smaller batch, then to the first
// in the model file's order: Go's pricing.NearestBatch.
function nearestBatch(rows, batch) {
  let best = null, bestD = 0;
  for (const c of rows) {
    const d = Math.abs(c.batch - batch);
    if (best === null || d < bestD || (d === bestD && c.batch < best.batch)) { best = c; bestD = d; }
  }
  return best;
}

function calculator(root, data) {
  const model = root.querySelector("#calc-model");
  const gpu = root.querySelector("#calc-gpu");
  const batch = root.querySelector("#calc-batch");
  const config = root.querySelector("#calc-config");
  const grid = root.querySelector("#calc-grid");
  const own = root.querySelector("#calc-own");
  const wh = root.querySelector("#calc-wh");
  const kg = root.querySelector("#calc-kg");
  const at = root.querySelector("#calc-at");
  const bySlug = new Map(data.models.map((m) => [m.slug, m]));

  function fillGPUs() {
    const m = bySlug.get(model.value);
    gpu.replaceChildren();
    (m ? m.rows : []).forEach((r, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = r.label;
      gpu.appendChild(o);
    });
  }
  function update() {
    own.disabled = grid.value !== "own";
    const m = bySlug.get(model.value);
    const idx = m && m.rows[Number(gpu.value)];
    if (!idx) { wh.value = "–"; kg.value = "–"; at.textContent = ""; config.value = ""; return; }
    // As the API: a running batch is a number from 1e-6 to 100000.
    let r = { wh: idx.wh, label: idx.config };
    config.value = "Index row: " + idx.label + ", " + idx.config + ".";
    if (batch.value.trim() !== "" || batch.validity.badInput) {
      const b = Number(batch.value);
      const c = batch.value.trim() !== "" && b >= 0.000001 && b <= 100000 ? nearestBatch(idx.batches, b) : null;
      if (!c) {
        wh.value = "–"; kg.value = "–"; at.textContent = "";
        config.value = "Type a running batch from 0.000001 to 100,000, or leave it empty for the index row.";
        return;
      }
      r = c;
      config.value = "Nearest to a running batch of " + batch.value.trim() + ": " + idx.label + ", " + c.label + ".";
    }
    wh.value = dec1(r.wh);
    let g, where;
    if (grid.value === "own") {
      // As the API: a stated intensity is 0 to 2000 g CO2e per kWh.
      g = own.value.trim() === "" ? NaN : Number(own.value);
      if (!(g >= 0 && g <= 2000)) g = NaN;
      where = Number.isFinite(g) ? " at " + own.value.trim() + " g CO2e per kWh" : "";
    } else {
      const a = data.grids[Number(grid.value)];
      g = a.g;
      where = (a.name === "World" ? " on the world average grid" : " in " + a.name) + " (" + a.g_text + " g CO2e per kWh, " + a.year + ")";
    }
    if (!Number.isFinite(g)) { kg.value = "–"; at.textContent = ": type a grid intensity from 0 to 2000 g CO2e per kWh"; return; }
    // Go's grid.KgPerBillionTokens: whPerM * gPerKWh / 1000, rounded once.
    kg.value = dec1(r.wh * g / 1000);
    at.textContent = where;
  }
  model.addEventListener("change", () => { fillGPUs(); update(); });
  gpu.addEventListener("change", update);
  batch.addEventListener("input", update);
  grid.addEventListener("change", update);
  own.addEventListener("input", update);
  fillGPUs();
  update();
  root.classList.add("ready");
}

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("table.sortable").forEach(sortTable);
  const calc = document.getElementById("calc");
  const data = document.getElementById("calc-data");
  if (calc && data) calculator(calc, JSON.parse(data.textContent));
});
