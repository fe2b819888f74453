// Package pricing prices a model's energy on a grid, and finds what a
// person names among a snapshot's models and grids. It is the one home of
// these rules for every surface: the command line's carbon, list and
// render, the API's /carbon, the MCP server's price_carbon and list_grids,
// the pages' carbon tables and the site's calculator.
//
//   - The formula: the carbon of one functional unit (a billion output
//     tokens, a request, 1,000 requests: Unit) from a row's unrounded
//     energy (Basis: per output token, per request), a data centre's PUE
//     and a grid's intensity, rounded once (Unit.Price, KgPerBillionTokens,
//     Formula), and what every carbon answer says of its accounting in the
//     Software Carbon Intensity's terms (SCI).
//   - Which configuration is priced: a GPU's index row by the index row
//     rule (BestWith, which the builder fills a model file's best with
//     too), the rule among a GPU count, or the configuration nearest a
//     running batch (Choice, NearestBatch, BatchGPUs).
//   - Models by slug, name or model id, case, spaces and punctuation aside
//     (FindModel, FindName, NameKey, MatchNames).
//   - Grids: the one resolver of grid names (Lookup), by Ember's names and
//     codes, ISO 3166 codes (alpha-2, alpha-3, UN M.49, from
//     golang.org/x/text/language) and English names (CLDR's, from
//     golang.org/x/text/language/display), Ember's earlier names, common
//     names and Ember's regions; its error (GridError) is worded by each
//     surface under its own name for the parameter.
//   - The nearest names for a name that matches nothing (Nearest,
//     EditDistance), offered for a model or a grid name that is no code or
//     name of a place, never in place of a place a code or name names.
//
// It reads the published format (format.Model, format.Grid) and the
// leaderboard's rows; it never imports the builder, which imports it for
// the index row rule.
package pricing
