// Package transform is the builder: it turns the leaderboard's rows, as
// package leaderboard reads and filters them, into the published figures
// of package format: joules per token into Wh per million output tokens,
// the 500 ms median inter-token-latency selection, each model's
// configurations and index rows (EachModel, Models; each GPU's index row
// by pricing.BestWith, the one implementation of the rule, which the
// readers price with), and index.json's comparisons (IndexBuilder). Ember's
// CSV becomes grid.json in transform/grid. Finding a model or a grid by what
// a person types and pricing it are the readers' (package pricing). It reads bytes and returns
// values; it never touches the network or the disk (fetch/ and snapshots/
// do).
package transform
