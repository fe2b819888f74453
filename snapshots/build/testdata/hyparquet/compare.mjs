// Reads a snapshot's exported Parquet files with hyparquet, a Parquet
// reader outside Go, and its CSV files with the RFC 4180 reader below, and
// compares every value with the snapshot's JSON files: each model file's
// configurations and its best configuration of each GPU (by GPU), under the
// model's names and sizes, and grid.json's areas. Prints {"values": N,
// "rows": {...}, "mismatches": [...]} as JSON.
//
// Usage: node compare.mjs SNAPSHOT_DIR TASK
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet'

const [dir, task] = process.argv.slice(2)
const json = (p) => JSON.parse(readFileSync(join(dir, p), 'utf8'))
const modelKeys = ['slug', 'name', 'model_id', 'params_b', 'active_params_b', 'architecture']

const configs = []
const indexRows = []
for (const entry of json('index.json').models) {
  const m = json(entry.file)
  const head = Object.fromEntries(modelKeys.map((k) => [k, m[k]]))
  for (const c of m.configurations) configs.push({ ...head, ...c })
  for (const gpu of Object.keys(m.best).sort()) indexRows.push({ ...head, ...m.best[gpu] })
}
const want = {
  [`exports/${task}/configurations`]: configs,
  [`exports/${task}/index-rows`]: indexRows,
  'exports/grid': json('grid.json').areas,
}

// csvObjects reads an RFC 4180 file (a header row, fields quoted when they
// hold a comma, a quote or a line end, records ended by LF) as objects,
// each value read as its JSON type says: a number, a boolean, a string.
function csvObjects(text, like) {
  const records = []
  let record = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++ } else if (c === '"') quoted = false
      else field += c
    } else if (c === '"') quoted = true
    else if (c === ',') { record.push(field); field = '' }
    else if (c === '\n') { record.push(field); records.push(record); record = []; field = '' }
    else field += c
  }
  const [header, ...rows] = records
  return rows.map((r) => Object.fromEntries(header.map((h, j) => {
    const t = typeof like[h]
    return [h, t === 'number' ? Number(r[j]) : t === 'boolean' ? r[j] === 'true' : r[j]]
  })))
}

const out = { values: 0, rows: {}, mismatches: [] }
const mismatch = (m) => { if (out.mismatches.length < 20) out.mismatches.push(m) }
for (const [base, rows] of Object.entries(want)) for (const path of [base + '.parquet', base + '.csv']) {
  const got = path.endsWith('.csv')
    ? csvObjects(readFileSync(join(dir, path), 'utf8'), rows[0])
    : await parquetReadObjects({ file: await asyncBufferFromFile(join(dir, path)) })
  out.rows[path] = got.length
  if (got.length !== rows.length) mismatch(`${path}: ${got.length} rows, the JSON files give ${rows.length}`)
  rows.forEach((w, i) => {
    const g = got[i] ?? {}
    const keys = Object.keys(w)
    if (Object.keys(g).join() !== keys.join()) mismatch(`${path} row ${i + 1}: columns ${Object.keys(g)}, the JSON files give ${keys}`)
    for (const k of keys) {
      const v = typeof g[k] === 'bigint' ? Number(g[k]) : g[k]
      out.values++
      if (v !== w[k]) mismatch(`${path} row ${i + 1} (${w.row_id ?? w.name}): ${k} is ${v}, the JSON files give ${w[k]}`)
    }
  })
}
console.log(JSON.stringify(out))
