package catalog

import (
	"fmt"
	"strings"

	"github.com/leadgreen/greentokens/pricing"
)

// Kinds of Error.
const (
	// NotFound: a snapshot, model, grid or GPU that is not there.
	NotFound = "not-found"
	// Invalid: a request that cannot be answered as asked (a bad number,
	// too many grids, a name matching several areas).
	Invalid = "invalid"
)

// maxNearest is how many nearest names an error offers.
const maxNearest = 3

// Error is a request the catalog cannot answer. For an unknown name it
// carries the nearest names that exist.
type Error struct {
	Kind string // NotFound or Invalid
	// What names the kind of thing asked for: "snapshot", "model", "grid",
	// "gpu", or a parameter of a price request (ParamBatch, ParamIntensity,
	// ParamNumGPUs, ParamPUE) as the catalog and the API's query name it.
	What string
	// Query is what was asked for.
	Query string
	// Nearest lists up to three existing names closest to Query.
	Nearest []string
	// Detail says what is wrong, in a sentence.
	Detail string
	// Rule, for a parameter whose value is refused, is the end of a
	// sentence that starts with the parameter's name: what the value must
	// be ("must be a number from 1e-06 to 100000"), or for a grid the name
	// and what is wrong with it (`"FR": no value for France (FRA) in the
	// 2024 grid`, pricing.GridError's Reason). Detail is then What and
	// Rule, and Named words it with another name.
	Rule string
	// Cause is the lookup's own error, when there is one
	// (pricing.FindModel's, pricing.Lookup's *pricing.GridError).
	Cause error
}

// Parameters of a price request, as Error.What and the API's query name
// them. A surface that spells one otherwise (the MCP server's
// running_batch, the command line's --num-gpus) words an Error in its own
// name with Named.
const (
	ParamBatch     = "batch"
	ParamIntensity = "intensity"
	ParamNumGPUs   = "num_gpus"
	ParamPUE       = "pue"
)

// Named returns e as a surface that calls e.What name words it: What is
// name, and a Detail made of What and Rule names it. A Detail without a
// Rule (an unknown model, a name too long) does not name the parameter and
// is kept.
func (e *Error) Named(name string) *Error {
	c := *e
	c.What = name
	if e.Rule != "" {
		c.Detail = name + " " + e.Rule
	}
	return &c
}

// Unwrap returns the lookup's own error, if any.
func (e *Error) Unwrap() error { return e.Cause }

func (e *Error) Error() string {
	if len(e.Nearest) == 0 {
		return e.Detail
	}
	return e.Detail + "; nearest: " + pricing.Quoted(e.Nearest, ", ")
}

func notFound(what, query string, near []string) *Error {
	return &Error{Kind: NotFound, What: what, Query: query, Nearest: near, Detail: fmt.Sprintf("no %s %q", what, query)}
}

func invalid(what, query, format string, a ...any) *Error {
	return &Error{Kind: Invalid, What: what, Query: query, Detail: fmt.Sprintf(format, a...)}
}

// outOfRange is an Invalid error for a parameter's value: "what rule".
func outOfRange(what, query, rule string, a ...any) *Error {
	e := &Error{Kind: Invalid, What: what, Query: query, Rule: fmt.Sprintf(rule, a...)}
	e.Detail = what + " " + e.Rule
	return e
}

// nearest returns up to maxNearest of names closest to q by edit distance,
// with pricing.Nearest's rule.
func nearest(q string, names []string) []string {
	cands := make([][]string, len(names))
	for i, n := range names {
		cands[i] = []string{n}
	}
	return nearestOf(q, cands)
}

// Nearest returns up to three of names closest to q, as an Error's
// Nearest lists them: for a caller that words its own error of the
// catalog's kinds.
func Nearest(q string, names []string) []string { return nearest(q, names) }

// nearestOf is nearest over candidates with several spellings each, the
// first the display name.
func nearestOf(q string, cands [][]string) []string {
	return pricing.Nearest(q, cands, maxNearest)
}

// MaxNameBytes is the longest name a request may give for a snapshot,
// model, grid or GPU: a longer one is Invalid, answered without looking
// for the nearest names.
const MaxNameBytes = 200

// checkName refuses a name over MaxNameBytes.
func checkName(what, q string) *Error {
	if len(q) <= MaxNameBytes {
		return nil
	}
	return &Error{Kind: Invalid, What: what, Query: strings.ToValidUTF8(q[:32], "") + "...",
		Detail: fmt.Sprintf("the %s name is %d bytes; at most %d", what, len(q), MaxNameBytes)}
}
