package render

import (
	"fmt"
	"strconv"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/transform"
)

// What other renderers of a snapshot (the site's overview pages) print the
// way the model pages do, from the same code.

// The index's two tasks, as Ref takes them ("lm-arena-chat", "gpqa").
const (
	TaskChat    = transform.TaskChat
	TaskProblem = transform.TaskProblem
)

// TaskName is a task's name as the pages print it ("Text Conversation").
func TaskName(task string) string { return transform.TaskNames[task] }

// Dec1 prints x rounded once to 1 decimal, with thousands separators (Wh/M).
func Dec1(x float64) string { return dec1(x) }

// Whole prints x rounded once to a whole number, with thousands separators.
func Whole(x float64) string { return whole(x) }

// Group puts thousands separators into a decimal integer string: -6,912.
func Group(s string) string { return group(s) }

// Times prints a ratio of index.json with its three significant figures and ×.
func Times(x format.Float) string { return times(x) }

// Short prints a published float without a trailing ".0" (parameters).
func Short(x format.Float) string { return short(x) }

// LongDate prints a YYYY-MM-DD date as 16 February 2026.
func LongDate(s string) string { return longDate(s) }

// On names a configuration's hardware as plain text, "1 × B200", for a
// renderer that escapes text itself (the pages' on escapes it for Markdown).
func On(n int, gpu string) string { return strconv.Itoa(n) + " × " + gpu }

// List joins names the English way: "a, b and c".
func List(items []string) string { return list(items) }

// WhPerMillion is an archived row's unrounded Wh/M.
func WhPerMillion(r *leaderboard.Row) float64 { return leaderboard.WhPerMillion(*r.EnergyPerToken) }

// CiteAs is the index's citation for a release (a model file's updated date).
func CiteAs(updated string) (string, error) {
	t, err := loadText()
	if err != nil {
		return "", err
	}
	year := updated
	if len(year) >= 4 {
		year = year[:4]
	}
	return sourcetext.Fill(t.CiteAs, map[string]string{
		"publisher": t.Publisher, "title": t.Title, "index_url": t.IndexURL, "release": updated, "year": year,
	})
}

// Entry returns a model's entry in index.json's models (its last, as the
// model page reads it); nil when the index lists no such model.
func (s *Snapshot) Entry(slug string) *format.IndexEntry {
	if i := s.entries(slug).entry; i >= 0 {
		return &s.Index.Models[i]
	}
	return nil
}

// IndexRow returns the archived row behind an index entry's row on gpu,
// checking that the published figures are its rounding.
func (s *Snapshot) IndexRow(e *format.IndexEntry, gpu string) (*leaderboard.Row, error) {
	c, ok := e.Best[gpu]
	if !ok {
		return nil, fmt.Errorf("%s: %s has no index row on %s", format.IndexPath, e.Slug, gpu)
	}
	return s.row(transform.TaskChat, format.IndexPath, c.RowID, c.JoulesPerToken, c.AvgRunningBatch)
}

// Ref returns the archived row behind a row reference of index.json in a
// task ("lm-arena-chat", "gpqa").
func (s *Snapshot) Ref(task string, r format.RowRef) (*leaderboard.Row, error) {
	return s.row(task, format.IndexPath, r.RowID, r.JoulesPerToken, r.AvgRunningBatch)
}
