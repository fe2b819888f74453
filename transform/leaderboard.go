// Package transform turns the archived upstream files into the published
// figures: joules per token into Wh per million output tokens, the stability
// filter, the 500 ms median inter-token-latency selection, each model's
// configurations and best rows, and index.json's comparisons. It refuses
// upstream bytes it cannot read safely (a key given twice, a value out of
// range). Finding a model by what a person types and pricing it on a grid
// are catalog's (catalog.FindModel, catalog.Price). It reads bytes and returns values;
// it never touches the network or the disk (fetch/ and snapshots/ do).
package transform

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Upstream field names of a task file's configuration rows.
const (
	fModelID       = "model_id"
	fNickname      = "nickname"
	fGPU           = "gpu_model"
	fNumGPUs       = "num_gpus"
	fTP            = "tensor_parallel"
	fDP            = "data_parallel"
	fEP            = "expert_parallel"
	fPrecision     = "weight_precision"
	fMaxNumSeqs    = "max_num_seqs"
	fAvgBatch      = "avg_batch_size"
	fEnergyToken   = "energy_per_token_joules"
	fEnergyRequest = "energy_per_request_joules"
	fOutputLen     = "avg_output_len"
	fMedianITL     = "median_itl_ms"
	fP90ITL        = "p90_itl_ms"
	fP95ITL        = "p95_itl_ms"
	fP99ITL        = "p99_itl_ms"
	fThroughput    = "output_throughput_tokens_per_sec"
	fPower         = "avg_power_watts"
	fTotalParams   = "total_params_billions"
	fActiveParams  = "activated_params_billions"
	fArchitecture  = "architecture"
	// fSteadySeconds is the steady-state duration, where upstream has it.
	fSteadySeconds = "steady_state_duration_s"
)

// Row is one configuration row of a task file, as published.
type Row struct {
	Task  string // task id, e.g. "lm-arena-chat"
	Index int    // position in the file's configurations array (0-based)

	ModelID, Nickname, GPU, Precision, Architecture string
	NumGPUs, TP, DP, EP, MaxNumSeqs                 int
	TotalParams, ActiveParams                       float64

	AvgBatch, MedianITL, P90ITL, P95ITL, P99ITL, Throughput, Power float64

	// EnergyPerToken is nil when upstream has no value (an unstable run).
	EnergyPerToken *float64
	// EnergyPerRequest and OutputLen are nil where upstream lacks them.
	EnergyPerRequest, OutputLen *float64
	// SteadySeconds is nil where upstream lacks the field.
	SteadySeconds *float64

	// content identifies the row's JSON object, every field included (see
	// contentKey); zero for a row not read by ParseTask.
	content rowContent
}

// rowContent identifies a row object by its content (see contentKey).
type rowContent [sha256.Size]byte

// Label names the row in errors and logs:
// "leaderboard/tasks/TASK.json: configurations[I] (MODEL on N x GPU, max_num_seqs C)".
func (r *Row) Label() string {
	return TaskFile(r.Task) + ": " + r.where()
}

// where names the row within its file, with as much of its identity as
// could be read.
func (r *Row) where() string {
	switch {
	case r.ModelID != "" && r.GPU != "" && r.NumGPUs > 0 && r.MaxNumSeqs > 0:
		return fmt.Sprintf("configurations[%d] (%s on %d x %s, max_num_seqs %d)", r.Index, r.ModelID, r.NumGPUs, r.GPU, r.MaxNumSeqs)
	case r.ModelID != "":
		return fmt.Sprintf("configurations[%d] (%s)", r.Index, r.ModelID)
	}
	return fmt.Sprintf("configurations[%d]", r.Index)
}

// Plausibility bounds. A value beyond one is not a measurement we can
// check, and a build that meets one fails rather than publish it. Each
// leaves a wide margin around what the eight shared leaderboard versions
// (2025-11-29 to 2026-02-16, 4,120 rows of both tasks) hold, which is given
// with it. The lower bounds also keep every ratio of index.json finite.
const (
	// MinJoulesPerToken and MaxJoulesPerToken bound a positive
	// energy_per_token_joules (real: 0.028 to 21.9 J). Zero, negative and
	// non-finite values are the stability filter's.
	MinJoulesPerToken = 0.001
	MaxJoulesPerToken = 100.0
	// MinWattsPerGPU and MaxWattsPerGPU bound avg_power_watts / num_gpus
	// (real: 231 to 976 W; an H100 SXM draws at most 700 W, a B200 1000 W).
	MinWattsPerGPU = 10.0
	MaxWattsPerGPU = 2000.0
	// MinTokensPerSecond and MaxTokensPerSecond bound
	// output_throughput_tokens_per_sec (real: 177 to 22,412).
	MinTokensPerSecond = 1.0
	MaxTokensPerSecond = 1e6
	// MaxITLMS bounds each inter-token latency percentile, median to p99
	// (real: 3.8 to 977 ms).
	MaxITLMS = 10000.0
	// MinOutputTokens and MaxOutputTokens bound the average output length,
	// avg_output_len or the one derived from energy per request (real: 346
	// to 11,861 tokens).
	MinOutputTokens = 1.0
	MaxOutputTokens = 1e6
	// MaxRunningBatch bounds avg_batch_size, which max_num_seqs bounds too
	// (real: 7.9 to 4,095).
	MaxRunningBatch = 100000.0
	// MinParamsB and MaxParamsB bound total_params_billions and
	// activated_params_billions, published as params_b and active_params_b
	// (real: 8 to 671 and 3 to 405 billion).
	MinParamsB = 0.01
	MaxParamsB = 100000.0
)

// TaskFile is the archived name of a task's file.
func TaskFile(task string) string { return "leaderboard/tasks/" + task + ".json" }

// IndexModel is one model of the leaderboard's index.json.
type IndexModel struct {
	Nickname     string   `json:"nickname"`
	TotalParams  *float64 `json:"total_params_billions"`
	ActiveParams *float64 `json:"activated_params_billions"`
	Architecture string   `json:"architecture"`
	Precision    string   `json:"weight_precision"`
}

// Index is the leaderboard's public/data/index.json.
type Index struct {
	LastUpdated string                `json:"last_updated"`
	Models      map[string]IndexModel `json:"models"`
	Tasks       []string              `json:"tasks"`
}

// ParseIndex reads index.json.
func ParseIndex(data []byte) (*Index, error) {
	const name = "leaderboard/index.json"
	var idx Index
	if err := decodeStrict(data, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if idx.LastUpdated == "" {
		return nil, fmt.Errorf("%s: field \"last_updated\": missing", name)
	}
	if _, err := time.Parse(time.DateOnly, idx.LastUpdated); err != nil {
		return nil, fmt.Errorf("%s: field \"last_updated\": %q is not a YYYY-MM-DD date", name, idx.LastUpdated)
	}
	if len(idx.Models) == 0 {
		return nil, fmt.Errorf("%s: field \"models\": missing or empty", name)
	}
	return &idx, nil
}

// Commit is the newest commit to the task files, from GitHub's list-commits API.
type Commit struct {
	SHA  string
	Date time.Time // committer date, UTC
}

// ParseCommits reads the list-commits answer and returns its first (newest) commit.
func ParseCommits(data []byte) (*Commit, error) {
	const name = "leaderboard/commits.json"
	var list []struct {
		SHA    string `json:"sha"`
		Commit struct {
			Committer struct {
				Date string `json:"date"`
			} `json:"committer"`
		} `json:"commit"`
	}
	if err := decodeStrict(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s: no commits listed", name)
	}
	c := list[0]
	if c.SHA == "" {
		return nil, fmt.Errorf("%s: [0]: field \"sha\": missing", name)
	}
	t, err := time.Parse(time.RFC3339, c.Commit.Committer.Date)
	if err != nil {
		return nil, fmt.Errorf("%s: [0]: field \"commit.committer.date\": %q is not an RFC 3339 time", name, c.Commit.Committer.Date)
	}
	return &Commit{SHA: c.SHA, Date: t.UTC()}, nil
}

// ParseTask reads a task file's configuration rows. A row without a field
// that a rule needs, or with a field of the wrong type, is an error naming
// the file, the row and the field. Fields upstream adds are ignored.
//
// Each row is parsed from a slice of data, never a copy, so that a large
// file is not held twice (readRows, parseRows).
//
// The checks of the whole file (its syntax and encoding, and a name given
// twice in one object) run first: an error they find is the error.
func ParseTask(task string, data []byte) ([]Row, error) {
	name := TaskFile(task)
	if err := checkTask(data); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return readRows(task, name, data)
}

// checkTask checks a task file's syntax and encoding, and that no object
// gives a name twice.
func checkTask(data []byte) error {
	if !utf8.Valid(data) || !json.Valid(data) {
		var v any
		if err := decodeStrict(data, &v); err != nil {
			return err
		}
	}
	return checkDuplicateKeys(data)
}

// readRows is ParseTask's reading of the rows. Once the checks have found
// data one valid JSON value, in UTF-8, with no name twice in an object,
// which jsontext reads too, the decoder below should meet no error; if it
// does, it says so rather than go on. Each value is a slice of data (its
// end at the decoder's offset), not a copy. The rows are parsed once the
// file is read (parseRows); an error met after some rows comes after
// theirs, as if each row were parsed as it was met.
func readRows(task, name string, data []byte) ([]Row, error) {
	// Names given twice are the duplicate-key check's to refuse (ParseTask
	// reports its error first); reading without tracking them is faster.
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	if tok, _ := dec.ReadToken(); tok.Kind() != '{' {
		return nil, fmt.Errorf("%s: not a JSON object", name)
	}
	var readErr error
	value := func() []byte {
		v, err := dec.ReadValue()
		if err != nil {
			readErr = err
			return nil
		}
		end := dec.InputOffset()
		return data[end-int64(len(v)) : end : end]
	}
	var raws [][]byte // the rows met so far
	fail := func(err error) ([]Row, error) {
		if _, rowErr := parseRows(task, raws); rowErr != nil {
			return nil, rowErr
		}
		return nil, err
	}
	unreadable := func() ([]Row, error) {
		line, col := position(data, dec.InputOffset())
		return fail(fmt.Errorf("%s: cannot be read at line %d, column %d: %v", name, line, col, readErr))
	}
	gotTask, seenConfigs := false, false
	for dec.PeekKind() != '}' {
		k := value()
		if readErr != nil {
			return unreadable()
		}
		key, _ := jsontext.AppendUnquote(nil, k)
		switch string(key) {
		case "task":
			raw := value()
			if readErr != nil {
				return unreadable()
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil || s != task {
				return fail(fmt.Errorf("%s: field \"task\": %s, want %q", name, raw, task))
			}
			gotTask = true
		case "configurations":
			if seenConfigs {
				return fail(fmt.Errorf("%s: field \"configurations\": given twice", name))
			}
			seenConfigs = true
			switch dec.PeekKind() {
			case 'n': // null
				dec.ReadToken()
				continue
			case '[':
			default:
				return fail(fmt.Errorf("%s: field \"configurations\": not an array", name))
			}
			dec.ReadToken() // [
			for dec.PeekKind() != ']' {
				raw := value()
				if readErr != nil {
					return unreadable()
				}
				raws = append(raws, raw)
			}
			if _, err := dec.ReadToken(); err != nil { // ]
				readErr = err
				return unreadable()
			}
		default:
			if readErr = dec.SkipValue(); readErr != nil {
				return unreadable()
			}
		}
	}
	rows, err := parseRows(task, raws)
	if err != nil {
		return nil, err
	}
	if !gotTask {
		return nil, fmt.Errorf("%s: field \"task\": missing, want %q", name, task)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: field \"configurations\": missing or empty", name)
	}
	return rows, nil
}

// parseRows parses raws, a task file's rows in order, and returns the
// first bad row's error.
func parseRows(task string, raws [][]byte) ([]Row, error) {
	rows := make([]Row, len(raws))
	for i, raw := range raws {
		if err := parseRow(&rows[i], task, i, raw); err != nil {
			return nil, fmt.Errorf("%s: %w", rows[i].Label(), err)
		}
	}
	return rows, nil
}

func parseRow(r *Row, task string, i int, raw json.RawMessage) error {
	r.Task, r.Index = task, i
	m, ok := objectMembers(raw)
	if !ok {
		return fmt.Errorf("not a JSON object")
	}
	f := fields{m: m}
	r.ModelID = f.str(fModelID)
	r.Nickname = f.str(fNickname)
	r.GPU = f.str(fGPU)
	if r.GPU != "" && !GPUName(r.GPU) {
		f.fail(fGPU, "%q is not a plain GPU name (1 to %d bytes of letters, digits, space, \".\", \"_\" and \"-\", starting with a letter or digit, not ending with a space)", r.GPU, MaxGPUNameLen)
	}
	r.Precision = f.str(fPrecision)
	r.Architecture = f.str(fArchitecture)
	r.NumGPUs = f.count(fNumGPUs)
	// Versions before 2025-12-15 write 0 for a parallelism not used.
	r.TP = f.degree(fTP)
	r.DP = f.degree(fDP)
	r.EP = f.degree(fEP)
	r.MaxNumSeqs = f.count(fMaxNumSeqs)
	r.TotalParams = f.num(fTotalParams)
	r.ActiveParams = f.num(fActiveParams)
	r.AvgBatch = f.num(fAvgBatch)
	r.MedianITL = f.num(fMedianITL)
	r.P90ITL = f.num(fP90ITL)
	r.P95ITL = f.num(fP95ITL)
	r.P99ITL = f.num(fP99ITL)
	r.Throughput = f.num(fThroughput)
	r.Power = f.num(fPower)
	r.EnergyPerToken = f.optNum(fEnergyToken)
	r.EnergyPerRequest = f.optNum(fEnergyRequest)
	r.OutputLen = f.optNum(fOutputLen)
	r.SteadySeconds = f.optNum(fSteadySeconds)
	if f.err != nil {
		return f.err
	}
	if r.OutputLen == nil && r.EnergyPerRequest == nil {
		return fmt.Errorf("field %q: missing, and so is %q to derive it from", fOutputLen, fEnergyRequest)
	}
	if err := plausible(r); err != nil {
		return err
	}
	r.content = contentKey(m)
	return nil
}

// plausible checks a parsed row against what a measurement can be (the
// bounds above): a positive, finite energy per token from
// MinJoulesPerToken to MaxJoulesPerToken (zero, negative and non-finite
// values are the stability filter's), a power per GPU, a throughput, ITL
// percentiles, an average output length (as published, or derived where
// it can be), parameter counts and an average batch within their bounds,
// an average batch no larger than max_num_seqs (the cap on the running
// batch), and ITL percentiles that do not decrease.
func plausible(r *Row) error {
	if e := r.EnergyPerToken; e != nil && *e > 0 && !math.IsInf(*e, 1) {
		if err := within(fEnergyToken, *e, "J", MinJoulesPerToken, MaxJoulesPerToken); err != nil {
			return err
		}
	}
	if w := r.Power / float64(r.NumGPUs); w < MinWattsPerGPU || w > MaxWattsPerGPU {
		side, b := "above", MaxWattsPerGPU
		if w < MinWattsPerGPU {
			side, b = "below", MinWattsPerGPU
		}
		return fmt.Errorf("field %q: %v W is %v W per GPU (num_gpus %d), %s the %v W per GPU plausibility bound", fPower, r.Power, w, r.NumGPUs, side, b)
	}
	if err := within(fThroughput, r.Throughput, "tokens/s", MinTokensPerSecond, MaxTokensPerSecond); err != nil {
		return err
	}
	itl := []struct {
		key string
		v   float64
	}{{fMedianITL, r.MedianITL}, {fP90ITL, r.P90ITL}, {fP95ITL, r.P95ITL}, {fP99ITL, r.P99ITL}}
	for i, p := range itl {
		if err := within(p.key, p.v, "ms", 0, MaxITLMS); err != nil {
			return err
		}
		if i > 0 && p.v < itl[i-1].v {
			return fmt.Errorf("field %q: %v is below %s %v; ITL percentiles cannot decrease", p.key, p.v, itl[i-1].key, itl[i-1].v)
		}
	}
	switch {
	case r.OutputLen != nil:
		if err := within(fOutputLen, *r.OutputLen, "tokens", MinOutputTokens, MaxOutputTokens); err != nil {
			return err
		}
	case r.EnergyPerToken != nil && *r.EnergyPerToken > 0 && r.EnergyPerRequest != nil:
		if n := *r.EnergyPerRequest / *r.EnergyPerToken; n < MinOutputTokens || n > MaxOutputTokens {
			return fmt.Errorf("field %q: %v J per request over %v J per token gives an average output length of %v tokens, outside the plausibility bounds %v to %v",
				fEnergyRequest, *r.EnergyPerRequest, *r.EnergyPerToken, n, MinOutputTokens, MaxOutputTokens)
		}
	}
	for _, p := range []struct {
		key string
		v   float64
	}{{fTotalParams, r.TotalParams}, {fActiveParams, r.ActiveParams}} {
		if err := within(p.key, p.v, "billion", MinParamsB, MaxParamsB); err != nil {
			return err
		}
	}
	if err := within(fAvgBatch, r.AvgBatch, "", 0, MaxRunningBatch); err != nil {
		return err
	}
	if r.AvgBatch > float64(r.MaxNumSeqs) {
		return fmt.Errorf("field %q: %v is above max_num_seqs %d, the cap on the running batch", fAvgBatch, r.AvgBatch, r.MaxNumSeqs)
	}
	return nil
}

// within fails when x is outside [lo, hi], naming the field, the value and
// the bound it crosses.
func within(key string, x float64, unit string, lo, hi float64) error {
	if unit != "" {
		unit = " " + unit
	}
	switch {
	case x < lo:
		return fmt.Errorf("field %q: %v%s is below the %v%s plausibility bound", key, x, unit, lo, unit)
	case x > hi:
		return fmt.Errorf("field %q: %v%s is above the %v%s plausibility bound", key, x, unit, hi, unit)
	}
	return nil
}

// contentKey identifies a row object by its content: two rows have the same
// key when they have the same fields with equal values, whatever the key
// order, white space or spelling of numbers (compared as float64) and
// strings.
func contentKey(m map[string]json.RawMessage) rowContent {
	var b [1024]byte
	buf := b[:0]
	for _, k := range sortedKeys(m) {
		buf = strconv.AppendInt(buf, int64(len(k)), 10)
		buf = appendCanonical(append(append(buf, ':'), k...), m[k])
	}
	return sha256.Sum256(buf)
}

// appendCanonical appends one spelling of a JSON value, which tells where
// it ends: a number as "d" and the 8 bytes of its float64 (equal float64s,
// equal shortest forms), a string as "s", its length, ":" and its decoded
// bytes, a literal as is, and an object or array re-encoded by
// encoding/json (keys sorted); anything else (a number out of float64's
// range) as "r", its length, ":" and its text.
func appendCanonical(buf []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return buf
	}
	switch c := raw[0]; {
	case c == '-' || c >= '0' && c <= '9':
		if x, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return binary.BigEndian.AppendUint64(append(buf, 'd'), math.Float64bits(x))
		}
	case c == '"':
		str := raw[1 : len(raw)-1]
		if bytes.IndexByte(str, '\\') >= 0 {
			var u string
			if json.Unmarshal(raw, &u) == nil {
				str = []byte(u)
			}
		}
		buf = strconv.AppendInt(append(buf, 's'), int64(len(str)), 10)
		return append(append(buf, ':'), str...)
	case c == '{' || c == '[':
		var v any
		if json.Unmarshal(raw, &v) == nil {
			if b, err := json.Marshal(v); err == nil {
				return append(buf, b...)
			}
		}
	}
	buf = strconv.AppendInt(append(buf, 'r'), int64(len(raw)), 10)
	return append(append(buf, ':'), raw...)
}

// fields decodes typed values from a row, keeping the first error.
type fields struct {
	m   map[string]json.RawMessage
	err error
}

func (f *fields) fail(key, format string, a ...any) {
	if f.err == nil {
		f.err = fmt.Errorf("field %q: "+format, append([]any{key}, a...)...)
	}
}

func (f *fields) str(key string) string {
	raw, ok := f.m[key]
	if !ok || string(raw) == "null" {
		f.fail(key, "missing")
		return ""
	}
	var s string
	if raw[0] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		s = string(raw[1 : len(raw)-1]) // no escapes: the bytes are the string
	} else if err := json.Unmarshal(raw, &s); err != nil {
		f.fail(key, "%s is not a string", raw)
		return ""
	}
	if s == "" {
		f.fail(key, "empty")
	}
	return s
}

func (f *fields) optNum(key string) *float64 {
	raw, ok := f.m[key]
	if !ok || string(raw) == "null" {
		return nil
	}
	// The row comes from a valid JSON document: a value starting so is a
	// JSON number, which ParseFloat reads exactly as encoding/json would.
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		f.fail(key, "%s is not a number", raw)
		return nil
	}
	x, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		f.fail(key, "%s is out of the float64 range", raw)
		return nil
	}
	if x == 0 {
		x = 0 // -0 is 0: no published figure prints as -0.0
	}
	return &x
}

func (f *fields) num(key string) float64 {
	x, _ := f.numOK(key)
	return x
}

// numOK reads a required finite, non-negative number and says whether it
// is one.
func (f *fields) numOK(key string) (float64, bool) {
	p := f.optNum(key)
	if p == nil {
		if _, present := f.m[key]; !present || string(f.m[key]) == "null" {
			f.fail(key, "missing")
		}
		return math.NaN(), false
	}
	if math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0 {
		f.fail(key, "%v is not a finite, non-negative number", *p)
		return *p, false
	}
	return *p, true
}

// count reads a whole number from 1 to maxWhole.
func (f *fields) count(key string) int { return f.whole(key, 1) }

// degree reads a whole number from 0 to maxWhole.
func (f *fields) degree(key string) int { return f.whole(key, 0) }

const maxWhole = 1 << 20

func (f *fields) whole(key string, least float64) int {
	x, ok := f.numOK(key)
	if !ok {
		return 0
	}
	if x != math.Trunc(x) || x < least || x > maxWhole {
		f.fail(key, "%v is not a whole number from %v to %d", x, least, maxWhole)
		return 0
	}
	return int(x)
}

// decodeStrict decodes one JSON value and fails on trailing data. A syntax
// error names the line and column, and so does a key given twice in one
// object.
//
// Bytes that are not UTF-8 are an error too, naming where they are: the
// decoder would silently turn them into U+FFFD.
func decodeStrict(data []byte, v any) error {
	if !utf8.Valid(data) {
		off := invalidUTF8(data)
		line, col := position(data, int64(off))
		return fmt.Errorf("not valid UTF-8 at line %d, column %d (byte offset %d: 0x%02x)", line, col, off, data[off])
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			off := se.Offset
			if off > 0 && strings.HasPrefix(se.Error(), "invalid character") {
				off-- // the offset counts the bad character itself
			}
			line, col := position(data, off)
			return fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, se)
		case errors.As(err, &te):
			line, col := position(data, te.Offset)
			return fmt.Errorf("field %q at line %d, column %d: a JSON %s where a %s belongs", te.Field, line, col, te.Value, te.Type)
		}
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("not valid JSON: data after the top-level value")
	}
	return checkDuplicateKeys(data)
}

// invalidUTF8 returns the offset of the first byte that does not start a
// valid UTF-8 sequence.
func invalidUTF8(data []byte) int {
	for off := 0; off < len(data); {
		r, n := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && n <= 1 {
			return off
		}
		off += n
	}
	return len(data)
}

// position returns the 1-based line and column (in bytes) of an offset.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// sortedKeys returns a map's keys in order, so output never follows map order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// LeaderboardFiles holds the archived leaderboard bytes the model files are
// built from.
type LeaderboardFiles struct {
	Index, Commits, Chat []byte
	// ChatURL is the URL the Text Conversation task file came from.
	ChatURL string
}

// NewLeaderboard parses the archived files and applies the stability filter
// to the Text Conversation task. It returns the rows it excluded.
func NewLeaderboard(f LeaderboardFiles, date, retrieved string) (*Leaderboard, []Exclusion, error) {
	idx, err := ParseIndex(f.Index)
	if err != nil {
		return nil, nil, err
	}
	commit, err := ParseCommits(f.Commits)
	if err != nil {
		return nil, nil, err
	}
	rows, err := ParseTask(TaskChat, f.Chat)
	if err != nil {
		return nil, nil, err
	}
	stable, excluded := Stable(rows)
	lb := &Leaderboard{Index: idx, Commit: commit, Chat: stable, DataURL: f.ChatURL, Date: date, Retrieved: retrieved}
	return lb, excluded, nil
}

// CheckIndexed fails when the model of one of a task file's rows is not in
// index.json, naming the first such row: the rule of the Text Conversation
// rows (a model missing from index.json is an error) holds for every task
// file, so that no row is left out without a word.
func (lb *Leaderboard) CheckIndexed(rows []Row) error {
	for i := range rows {
		if _, ok := lb.Index.Models[rows[i].ModelID]; !ok {
			return fmt.Errorf("%s: model %q is not in leaderboard/index.json", rows[i].Label(), rows[i].ModelID)
		}
	}
	return nil
}

// TaskChat is the Text Conversation task, the index's workload.
const TaskChat = "lm-arena-chat"
