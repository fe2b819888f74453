package diff

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/snapshots/store"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/leaderboard"
)

// The upstream rows behind the published configurations, which a diff
// reads from each snapshot's archived task files to tell a change of the
// data from a change of rounding.

// rowKey finds the upstream row behind a published configuration.
type rowKey struct {
	model, gpu     string
	n, cap, repeat int
}

// upRow is what a diff compares of an upstream row: the values behind the
// published figures of a configuration (see configFields), no more.
type upRow struct {
	precision                                 string
	tp, dp, ep                                int
	avgBatch, energy, medianITL               float64
	p90ITL, p95ITL, p99ITL, throughput, power float64
	outputTokens                              float64
	hasEnergy, outputTokensOK                 bool
}

func compactRow(r *leaderboard.Row) upRow {
	u := upRow{
		precision: r.Precision, tp: r.TP, dp: r.DP, ep: r.EP,
		avgBatch: r.AvgBatch, medianITL: r.MedianITL, p90ITL: r.P90ITL, p95ITL: r.P95ITL, p99ITL: r.P99ITL,
		throughput: r.Throughput, power: r.Power,
	}
	if r.EnergyPerToken != nil {
		u.energy, u.hasEnergy = *r.EnergyPerToken, true
	}
	x, err := leaderboard.OutputTokens(r)
	u.outputTokens, u.outputTokensOK = x, err == nil
	return u
}

// upstreamRows re-reads a snapshot's archived Text Conversation rows and
// applies the stability filter, numbering repeats in upstream order as the
// model files do. It returns nil (and notes why) when they cannot be read.
func (r *Report) upstreamRows(s *store.Release, side string) map[rowKey]*upRow {
	rows, err := chatRows(s)
	switch {
	case err == errNotArchived:
		r.Notes = append(r.Notes, fmt.Sprintf("%s snapshot: %s is not archived; published figures compared", side, chatPath))
		return nil
	case err != nil:
		r.Notes = append(r.Notes, fmt.Sprintf("%s snapshot: %v; published figures compared", side, err))
		return nil
	}
	return rows
}

// chatPath is the archived primary task file's path (Text Conversation),
// whose rows the model files publish.
var chatPath = format.PrimaryTask().ArchivedPath()

// sameChat reports whether two snapshots archive the same Text
// Conversation task file (the same size and sha256 listed, both checked
// by Load): its rows are then read once for both.
func sameChat(a, b *store.Release) bool {
	fa, oka := a.Listed(chatPath)
	fb, okb := b.Listed(chatPath)
	return oka && okb && fa.Size == fb.Size && fa.SHA256 == fb.SHA256
}

// rowIndex holds the stable rows of a task file, compacted, by rowKey.
type rowIndex struct {
	rows   map[rowKey]*upRow
	seen   map[rowKey]int
	intern map[string]string
}

func newRowIndex() *rowIndex {
	return &rowIndex{rows: map[rowKey]*upRow{}, seen: map[rowKey]int{}, intern: map[string]string{}}
}

func (x *rowIndex) str(s string) string {
	if v, ok := x.intern[s]; ok {
		return v
	}
	x.intern[s] = s
	return s
}

// add takes stable rows in upstream order (of every model, or of whole
// models: repeats are numbered per model, GPU, count and cap).
func (x *rowIndex) add(stable []leaderboard.Row) {
	compact := make([]upRow, len(stable))
	for i := range stable {
		row := &stable[i]
		compact[i] = compactRow(row)
		compact[i].precision = x.str(row.Precision)
		k := rowKey{model: x.str(row.ModelID), gpu: x.str(row.GPU), n: row.NumGPUs, cap: row.MaxNumSeqs}
		x.seen[k]++
		k.repeat = x.seen[k]
		x.rows[k] = &compact[i]
	}
}

// chatRows reads the snapshot's archived Text Conversation task file into
// its stable rows (leaderboard.ParseTask, then leaderboard.Stable), by rowKey,
// compacted to what a diff compares.
//
// The file is read as a stream, a row at a time, and neither its bytes nor
// its rows are held: the stability filter works within one model (a
// duplicate row repeats the model id, and the cascade is per model), so
// where each model's rows are together in the file, as upstream writes
// them, the filter runs on one model's rows at a time. Where they are not,
// or where the stream meets anything leaderboard.ParseTask would not take as
// it is, the whole file is read again and handed to ParseTask (for its
// error), and the filter runs on all of its rows at once.
//
// A file that is not listed is errNotArchived; one that no longer has its
// listed size and sha256 is an error saying so.
func chatRows(s *store.Release) (map[rowKey]*upRow, error) {
	if _, ok := s.Listed(chatPath); !ok {
		return nil, errNotArchived
	}
	r := s.Reader()
	task := format.PrimaryTask().ID
	// By model: the rows of the model being read, flushed at the next one.
	x := newRowIndex()
	var run []leaderboard.Row
	flushed := map[string]bool{}
	flush := func() {
		stable, _ := leaderboard.Stable(run)
		x.add(stable)
		flushed[run[0].ModelID] = true
		run = run[:0]
	}
	err := r.StreamListed(chatPath, func(rd io.Reader) error {
		return streamTask(task, rd, func(row leaderboard.Row) bool {
			if len(run) > 0 && row.ModelID != run[0].ModelID {
				flush()
			}
			if flushed[row.ModelID] {
				return false // this model's rows are not together
			}
			run = append(run, row)
			return true
		})
	})
	if err == nil && len(run) > 0 {
		flush()
	}
	if err == errNotGrouped || err == errSlowPath {
		x, run = newRowIndex(), nil
		data, err := r.ReadListed(chatPath)
		if err != nil {
			return nil, err
		}
		all, err := leaderboard.ParseTask(task, data)
		if err != nil {
			return nil, err
		}
		stable, _ := leaderboard.Stable(all)
		all = nil
		x.add(stable)
	} else if err != nil {
		return nil, err
	}
	return x.rows, nil
}

var (
	// errSlowPath: the stream met what leaderboard.ParseTask alone says.
	errSlowPath = errors.New("not read as a stream")
	// errNotGrouped: a model's rows are not together in the file.
	errNotGrouped  = errors.New("a model's rows are apart")
	errNotArchived = errors.New("not archived")
)

// streamTask parses a task file from r one row at a time, each with
// leaderboard.ParseTask (on a file of that one row), and hands each row to
// fn, with its position in the file, as ParseTask gives it for the whole
// file. It returns errSlowPath for anything it does not take exactly as
// ParseTask would (an error, bytes that are not UTF-8, data after the
// object, a missing task, no rows), for the caller to hand the whole file
// to ParseTask; and errNotGrouped when fn returns false.
func streamTask(task string, r io.Reader, fn func(leaderboard.Row) bool) error {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return errSlowPath
	}
	head := []byte(`{"task":` + strconv.Quote(task) + `,"configurations":[`)
	var doc []byte
	rows := 0
	gotTask, seenConfigs := false, false
	for dec.More() {
		tok, err := dec.Token()
		key, isKey := tok.(string)
		if err != nil || !isKey || strings.ContainsRune(key, utf8.RuneError) {
			return errSlowPath
		}
		switch key {
		case "task":
			var raw json.RawMessage
			var v string
			if dec.Decode(&raw) != nil || !utf8.Valid(raw) || json.Unmarshal(raw, &v) != nil || v != task {
				return errSlowPath
			}
			gotTask = true
		case "configurations":
			if seenConfigs {
				return errSlowPath
			}
			seenConfigs = true
			tok, err := dec.Token()
			if err != nil || tok != json.Delim('[') {
				return errSlowPath
			}
			for ; dec.More(); rows++ {
				var raw json.RawMessage
				if dec.Decode(&raw) != nil {
					return errSlowPath
				}
				doc = append(append(append(doc[:0], head...), raw...), "]}"...)
				one, err := leaderboard.ParseTask(task, doc)
				if err != nil || len(one) != 1 {
					return errSlowPath
				}
				one[0].Index = rows
				if !fn(one[0]) {
					return errNotGrouped
				}
			}
			if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
				return errSlowPath
			}
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil || !utf8.Valid(skip) {
				return errSlowPath
			}
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return errSlowPath
	}
	if _, err := dec.Token(); err != io.EOF {
		return errSlowPath
	}
	if !gotTask || rows == 0 {
		return errSlowPath
	}
	return nil
}

func lookup(rows map[rowKey]*upRow, modelID string, c format.Config) *upRow {
	if rows == nil {
		return nil
	}
	return rows[rowKey{model: modelID, gpu: c.GPU, n: c.NumGPUs, cap: c.MaxNumSeqs, repeat: c.Repeat}]
}

// whUnrounded returns a configuration's unrounded Wh/M, from its upstream
// row when there is one, else the published figure.
func whUnrounded(row *upRow, c format.Config) float64 {
	if row != nil && row.hasEnergy {
		return leaderboard.WhPerMillion(row.energy)
	}
	return float64(c.WhPerMillion)
}
