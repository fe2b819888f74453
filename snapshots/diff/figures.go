package diff

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// The figure check: before a diff calls a published figure that differs
// while its upstream value did not a change of rounding only, it holds
// the figure of each side to that upstream value. A figure that is no
// rounding of it, to any number of decimals, does not come from the
// archived row it names (3.05 where the row gives 39.0512...): the
// snapshot is reported (Report.Problems, Report.Err), never its figure
// counted as rounding.
//
// The check is the one diff can make from what it reads: the upstream
// rows of the archived Text Conversation task file behind every
// configuration and index row of every model file, read once per side.
// It is not the checker's (validate.Check, which verify runs): it knows
// no rule of which rounding the builder writes, only what a rounding can
// be, so that two snapshots built by code that rounds a figure to other
// decimals compare as rounding only, as they should. Running the checker
// on both snapshots instead would cost some six times the diff's time and
// more than twice its memory at ten thousand models
// (docs/performance.md).

// figure is a published figure of a configuration that is the rounding
// of one upstream value: the only kind of field whose change, with its
// upstream value the same, is a change of rounding.
type figure struct {
	name      string
	published func(c *format.Config) float64
	// upstream is the unrounded value behind it, false when the row has
	// none.
	upstream func(r *upRow) (float64, bool)
}

func always(f func(*upRow) float64) func(*upRow) (float64, bool) {
	return func(r *upRow) (float64, bool) { return f(r), true }
}

// figures are a configuration's rounded figures, in the published key
// order.
var figures = []figure{
	{"avg_requests_in_flight", func(c *format.Config) float64 { return float64(c.AvgRequestsInFlight) },
		always(func(r *upRow) float64 { return r.avgBatch })},
	{"wh_per_million_output_tokens", func(c *format.Config) float64 { return float64(c.WhPerMillion) },
		func(r *upRow) (float64, bool) { return leaderboard.WhPerMillion(r.energy), r.hasEnergy }},
	{"joules_per_output_token", func(c *format.Config) float64 { return float64(c.JoulesPerToken) },
		func(r *upRow) (float64, bool) { return r.energy, r.hasEnergy }},
	{"median_itl_ms", func(c *format.Config) float64 { return float64(c.MedianITL) },
		always(func(r *upRow) float64 { return r.medianITL })},
	{"p90_itl_ms", func(c *format.Config) float64 { return float64(c.P90ITL) },
		always(func(r *upRow) float64 { return r.p90ITL })},
	{"p99_itl_ms", func(c *format.Config) float64 { return float64(c.P99ITL) },
		always(func(r *upRow) float64 { return r.p99ITL })},
	{"tokens_per_second", func(c *format.Config) float64 { return float64(c.TokensPerSecond) },
		always(func(r *upRow) float64 { return r.throughput })},
	{"gpu_power_watts_total", func(c *format.Config) float64 { return float64(c.GPUPowerWatts) },
		always(func(r *upRow) float64 { return r.power })},
	{"avg_output_tokens", func(c *format.Config) float64 { return float64(c.AvgOutputTokens) },
		func(r *upRow) (float64, bool) { return r.outputTokens, r.outputTokensOK }},
	{"avg_running_batch", func(c *format.Config) float64 { return float64(c.AvgRunningBatch) },
		always(func(r *upRow) float64 { return r.avgBatch })},
	{"p95_itl_ms", func(c *format.Config) float64 { return float64(c.P95ITL) },
		always(func(r *upRow) float64 { return r.p95ITL })},
}

// isRounded reports whether the published field name is a rounded
// figure.
func isRounded(name string) bool {
	return slices.ContainsFunc(figures, func(f figure) bool { return f.name == name })
}

// roundingOnly reports whether the published field name of a and b,
// configurations over the same upstream row, differs by its rounding
// alone: it is a rounded figure, and each side's is a rounding of the
// row's value. A field that is no figure (a count, a precision, the
// deadline flag) changed by a rule; a figure that is no rounding is a
// Problem (checkFigures).
func roundingOnly(name string, a, b *format.Config, row *upRow) bool {
	for _, f := range figures {
		if f.name == name {
			u, ok := f.upstream(row)
			return ok && isRounding(f.published(a), u) && isRounding(f.published(b), u)
		}
	}
	return false
}

// isRounding reports whether p is u rounded to some number of decimals,
// as format.Round rounds (half to even on the exact binary value). p has
// at least as many decimals as it prints (shortest round-trip), and a
// rounding to more decimals than that which gives p is one to fewer
// decimals too, so the decimals p prints are tried first, then more.
func isRounding(p, u float64) bool {
	if p == u {
		return true
	}
	s := strconv.FormatFloat(p, 'f', -1, 64)
	d := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		d = len(s) - i - 1
	}
	for ; d <= 17; d++ {
		if float64(format.Round(u, d)) == p {
			return true
		}
	}
	return false
}

// Problem is a published figure that is not what its upstream value can
// give: the snapshot that publishes it fails its checks.
type Problem struct {
	// Snapshot names the snapshot, as its folder was given.
	Snapshot string `json:"snapshot"`
	// File is the file's slash path in the snapshot, Where the value in it
	// ("configurations[3] (qwen-3-32b/B200/1/384)", "best.B200"), Field
	// the field.
	File  string `json:"file"`
	Where string `json:"where"`
	Field string `json:"field"`
	Msg   string `json:"msg"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s: %s: %s: %s %s", p.Snapshot, p.File, p.Where, p.Field, p.Msg)
}

// checkFigures holds each rounded figure of every configuration and index
// row of the model file m, of the snapshot named name, to the upstream row
// behind it (rows; nil when they could not be read, and nothing is
// checked). A configuration without an upstream row is not checked: the
// diff says where it compares published figures.
func (r *Report) checkFigures(name string, m *format.Model, rows map[rowKey]*upRow) {
	if rows == nil {
		return
	}
	file := format.ModelPath(m.Slug)
	check := func(where string, c *format.Config) {
		row := lookup(rows, m.ModelID, *c)
		if row == nil {
			return
		}
		for _, f := range figures {
			u, ok := f.upstream(row)
			if p := f.published(c); ok && !isRounding(p, u) {
				r.Problems = append(r.Problems, Problem{Snapshot: name, File: file, Where: where, Field: f.name,
					Msg: fmt.Sprintf("is %s, which is no rounding of %s, its upstream value (row %s of %s)", printed(p), printed(u), c.RowID, chatPath)})
			}
		}
	}
	for i := range m.Configurations {
		c := &m.Configurations[i]
		check(fmt.Sprintf("configurations[%d] (%s)", i, c.RowID), c)
	}
	for _, gpu := range slices.Sorted(maps.Keys(m.Best)) {
		c := m.Best[gpu]
		check("best."+gpu, &c)
	}
}

func printed(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
