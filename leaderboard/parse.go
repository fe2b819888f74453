package leaderboard

import (
	"bytes"
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

	"github.com/leadgreen/greentokens/format"
)

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
	var rows []Row
	err := readTask(task, data, func(raws [][]byte) (n int, err error) {
		rows, err = parseRows(task, raws)
		return len(rows), err
	})
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// readTask runs the checks of the whole file, then reads its rows with
// readRows, handing them to parse, which returns how many it parsed.
func readTask(task string, data []byte, parse func(raws [][]byte) (int, error)) error {
	name := format.LeaderboardTask(task)
	if err := checkTask(data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return readRows(task, name, data, parse)
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

// readRows is the reading of a task file's rows, which parse parses. Once the checks have found
// data one valid JSON value, in UTF-8, with no name twice in an object,
// which jsontext reads too, the decoder below should meet no error; if it
// does, it says so rather than go on. Each value is a slice of data (its
// end at the decoder's offset), not a copy. The rows are parsed once the
// file is read (parse); an error met after some rows comes after theirs,
// as if each row were parsed as it was met.
func readRows(task, name string, data []byte, parse func(raws [][]byte) (int, error)) error {
	// Names given twice are the duplicate-key check's to refuse (ParseTask
	// reports its error first); reading without tracking them is faster.
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true))
	if tok, _ := dec.ReadToken(); tok.Kind() != '{' {
		return fmt.Errorf("%s: not a JSON object", name)
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
	fail := func(err error) error {
		if _, rowErr := parse(raws); rowErr != nil {
			return rowErr
		}
		return err
	}
	unreadable := func() error {
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
	n, err := parse(raws)
	if err != nil {
		return err
	}
	if !gotTask {
		return fmt.Errorf("%s: field \"task\": missing, want %q", name, task)
	}
	if n == 0 {
		return fmt.Errorf("%s: field \"configurations\": missing or empty", name)
	}
	return nil
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
	r.ModelID = f.str(FieldModelID)
	r.Nickname = f.str(FieldNickname)
	r.GPU = f.gpu()
	r.Precision = f.str(FieldPrecision)
	r.Architecture = f.str(FieldArchitecture)
	r.NumGPUs = f.count(FieldNumGPUs)
	// Versions before 2025-12-15 write 0 for a parallelism not used.
	r.TP = f.degree(FieldTP)
	r.DP = f.degree(FieldDP)
	r.EP = f.degree(FieldEP)
	r.MaxNumSeqs = f.count(FieldMaxNumSeqs)
	r.TotalParams = f.num(FieldTotalParams)
	r.ActiveParams = f.num(FieldActiveParams)
	r.AvgBatch = f.num(FieldAvgBatch)
	r.MedianITL = f.num(FieldMedianITL)
	r.P90ITL = f.num(FieldP90ITL)
	r.P95ITL = f.num(FieldP95ITL)
	r.P99ITL = f.num(FieldP99ITL)
	r.Throughput = f.num(FieldThroughput)
	r.Power = f.num(FieldPower)
	r.EnergyPerToken = f.optNum(FieldEnergyToken)
	r.EnergyPerRequest = f.optNum(FieldEnergyRequest)
	r.OutputLen = f.optNum(FieldOutputLen)
	r.SteadySeconds = f.optNum(FieldSteadySeconds)
	if f.err != nil {
		return f.err
	}
	if r.OutputLen == nil && r.EnergyPerRequest == nil {
		return fmt.Errorf("field %q: missing, and so is %q to derive it from", FieldOutputLen, FieldEnergyRequest)
	}
	if err := plausible(r); err != nil {
		return err
	}
	r.content = contentKey(m)
	return nil
}

// fields decodes typed values from a row, keeping the first error.
type fields struct {
	m   map[string]json.RawMessage
	err error
}

func (f *fields) fail(key, msg string, a ...any) {
	if f.err == nil {
		f.err = fmt.Errorf("field %q: "+msg, append([]any{key}, a...)...)
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

// gpu reads gpu_model, a plain GPU name (GPUName).
func (f *fields) gpu() string {
	g := f.str(FieldGPU)
	if g != "" && !GPUName(g) {
		f.fail(FieldGPU, "%q is not a plain GPU name (1 to %d bytes of letters, digits, space, \".\", \"_\" and \"-\", starting with a letter or digit, not ending with a space)", g, MaxGPUNameLen)
	}
	return g
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
