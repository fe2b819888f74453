package transform

// EnergyScope says what the energy per output token covers, in the words
// every surface uses (the pages, the site, the API's description and the
// MCP server's instructions). The leaderboard measures the GPU energy of a
// steady-state window, which holds the prefill of the requests in flight,
// and divides it by the output tokens of that window alone.
const EnergyScope = "The energy includes prompt processing (the prefill of the requests in flight); only output tokens are counted."
