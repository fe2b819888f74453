package validate

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// Upstream file names, as archived under a snapshot's sources/.
const (
	lbIndexName   = "leaderboard/index.json"
	lbCommitsName = "leaderboard/commits.json"
)

// Plausibility bounds of the published rule: a row beyond one is a problem,
// never a published figure. Real values of the eight shared leaderboard
// versions are given with each.
const (
	minJoulesPerToken  = 0.001  // a positive energy_per_token_joules (real 0.028 to 21.9)
	maxJoulesPerToken  = 100.0  //
	minWattsPerGPU     = 10.0   // avg_power_watts / num_gpus (real 231 to 976)
	maxWattsPerGPU     = 2000.0 //
	minTokensPerSecond = 1.0    // output_throughput_tokens_per_sec (real 177 to 22,412)
	maxTokensPerSecond = 1e6    //
	maxITLMS           = 1e4    // each ITL percentile (real 3.8 to 977 ms)
	minOutputTokens    = 1.0    // avg_output_len, or as derived (real 346 to 11,861)
	maxOutputTokens    = 1e6    //
	maxRunningBatch    = 1e5    // avg_batch_size (real 7.9 to 4,095)
	minParamsB         = 0.01   // total_params_billions, activated_params_billions (real 8 to 671, 3 to 405)
	maxParamsB         = 1e5    //
)

// checkUTF8 reports a file whose bytes are not UTF-8 (a JSON decoder would
// quietly turn them into U+FFFD), naming the first bad byte's line, column
// and offset.
func checkUTF8(ps *problems, data []byte) bool {
	if utf8.Valid(data) {
		return true
	}
	off := 0
	for r, size := utf8.DecodeRune(data); r != utf8.RuneError || size != 1; r, size = utf8.DecodeRune(data[off:]) {
		off += size
	}
	line, col := lineCol(data, off)
	ps.add("", "", "is not valid UTF-8 at line %d, column %d (byte offset %d)", line, col, off)
	return false
}

// lbIndex is what this package reads from the leaderboard's index.json.
type lbIndex struct {
	lastUpdated string
	nicknames   map[string]string // model_id → nickname
	tasks       []string          // the tasks it lists; nil when it has no such field
}

// decodeSource decodes an archived upstream file into v: its bytes must
// be UTF-8, decode, and give no key twice in one object.
func decodeSource(ps *problems, data []byte, v any) bool {
	if !checkUTF8(ps, data) {
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		ps.add("", "", "cannot be decoded: %v", err)
		return false
	}
	return checkDuplicateKeys(ps, data)
}

func parseIndex(ps *problems, data []byte) *lbIndex {
	var raw struct {
		LastUpdated *string `json:"last_updated"`
		Models      map[string]struct {
			Nickname *string `json:"nickname"`
		} `json:"models"`
		Tasks []string `json:"tasks"`
	}
	if !decodeSource(ps, data, &raw) {
		return nil
	}
	switch {
	case raw.LastUpdated == nil:
		ps.add("", "last_updated", "is missing")
		return nil
	case !isDate(*raw.LastUpdated):
		ps.add("", "last_updated", "%q is not a YYYY-MM-DD date", *raw.LastUpdated)
		return nil
	}
	idx := &lbIndex{lastUpdated: *raw.LastUpdated, nicknames: map[string]string{}, tasks: raw.Tasks}
	if len(raw.Models) == 0 {
		ps.add("", "models", "is missing or empty")
	}
	for id, m := range raw.Models {
		if m.Nickname != nil {
			idx.nicknames[id] = *m.Nickname
		}
	}
	return idx
}

// lbCommit is the newest commit to the task files: the first entry of the
// archived GitHub list-commits answer.
type lbCommit struct {
	sha  string
	date string // UTC date of the committer date
}

func parseCommits(ps *problems, data []byte) *lbCommit {
	var list []struct {
		SHA    string `json:"sha"`
		Commit struct {
			Committer struct {
				Date string `json:"date"`
			} `json:"committer"`
		} `json:"commit"`
	}
	if !decodeSource(ps, data, &list) {
		return nil
	}
	if len(list) == 0 {
		ps.add("", "", "lists no commit")
		return nil
	}
	t, err := time.Parse(time.RFC3339, list[0].Commit.Committer.Date)
	if err != nil {
		ps.add("[0]", "commit.committer.date", "%q is not an RFC 3339 time", list[0].Commit.Committer.Date)
		return nil
	}
	if list[0].SHA == "" {
		ps.add("[0]", "sha", "is missing")
		return nil
	}
	return &lbCommit{sha: list[0].SHA, date: t.UTC().Format(time.DateOnly)}
}

// checkIndexed reports, once per model, a row of a task other than
// lm-arena-chat whose model index.json does not list, as groupModels does
// for Text Conversation; rows are the task's, in upstream order.
func checkIndexed[R interface {
	ident() rowIdent
	where() string
}](index *problems, idx *lbIndex, task string, rows []R) {
	seen := map[string]bool{}
	for _, r := range rows {
		id := r.ident().modelID
		if _, listed := idx.nicknames[id]; !listed && !seen[id] {
			seen[id] = true
			index.add("", "models", "has no model %q (%s %s)", id, task, r.where())
		}
	}
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == 10
}

// lbRow is one configuration row of a task file, with the values the
// published rules read.
type lbRow struct {
	task  string
	index int // position in the file's configurations array

	modelID, nickname, gpu, precision, arch string
	numGPUs, tp, dp, ep, maxNumSeqs         int
	totalParams, activeParams               float64
	avgBatch, medianITL, p90, p95, p99      float64
	throughput, power                       float64

	// Optional upstream values: nil when absent or null.
	energy, energyRequest, outputLen, steadySeconds *float64

	// content is the SHA-256 of the row object's canonical form (see
	// canonical): equal for rows with every field equal.
	content [sha256.Size]byte
}

// where names the row in problems.
func (r *lbRow) where() string {
	return fmt.Sprintf("configurations[%d] (%s on %d x %s, max_num_seqs %d)", r.index, r.modelID, r.numGPUs, r.gpu, r.maxNumSeqs)
}

// parseTaskFile reads a task file's rows: a token task's (unit "") or a
// diffusion task's (unit "image" or "video", parseDRow). A file that is
// not UTF-8, does not decode or gives a key twice is reported, and no row
// returned; a row lacking a field the rules need, or with one of the
// wrong type, is reported and left out.
func parseTaskFile(ps *problems, task, unit string, data []byte) (rows []*lbRow, drows []*dRow, ok bool) {
	var doc struct {
		Task           *string           `json:"task"`
		Configurations []json.RawMessage `json:"configurations"`
	}
	if !decodeSource(ps, data, &doc) {
		return nil, nil, false
	}
	if doc.Task == nil {
		ps.add("", "task", "is missing, want %q", task)
	} else if *doc.Task != task {
		ps.add("", "task", "is %q, want %q", *doc.Task, task)
	}
	if len(doc.Configurations) == 0 {
		ps.add("", "configurations", "is missing or empty")
		return nil, nil, false
	}
	ok = true
	for i, raw := range doc.Configurations {
		where := fmt.Sprintf("configurations[%d]", i)
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var m map[string]any
		if dec.Decode(&m) != nil || m == nil {
			ps.add(where, "", "is not a JSON object")
			ok = false
			continue
		}
		if id, _ := m["model_id"].(string); id != "" {
			where += " (" + id + ")"
		}
		rp := &rowParser{ps: ps, where: where, m: m, ok: true}
		if unit != "" {
			if d := parseDRow(rp, unit == "video"); rp.ok {
				d.task, d.index = task, i
				drows = append(drows, d)
			}
		} else if r := parseRow(rp); rp.ok {
			r.task, r.index = task, i
			rows = append(rows, r)
		}
		ok = ok && rp.ok
	}
	return rows, drows, ok
}

// parseRow reads a token task's row (rp's problems name it).
func parseRow(rp *rowParser) *lbRow {
	r := &lbRow{}
	r.modelID, r.nickname, r.gpu = rp.str("model_id"), rp.str("nickname"), rp.gpuModel()
	r.precision, r.arch = rp.str("weight_precision"), rp.str("architecture")
	r.numGPUs = rp.whole("num_gpus", 1)
	// Older versions write 0 for a parallelism not used; it is published
	// as it stands.
	r.tp, r.dp, r.ep = rp.whole("tensor_parallel", 0), rp.whole("data_parallel", 0), rp.whole("expert_parallel", 0)
	r.maxNumSeqs = rp.whole("max_num_seqs", 1)
	r.totalParams, r.activeParams = rp.num("total_params_billions"), rp.num("activated_params_billions")
	r.avgBatch = rp.num("avg_batch_size")
	r.medianITL, r.p90, r.p95, r.p99 = rp.num("median_itl_ms"), rp.num("p90_itl_ms"), rp.num("p95_itl_ms"), rp.num("p99_itl_ms")
	r.throughput, r.power = rp.num("output_throughput_tokens_per_sec"), rp.num("avg_power_watts")
	r.energy, r.energyRequest = rp.opt("energy_per_token_joules"), rp.opt("energy_per_request_joules")
	r.outputLen, r.steadySeconds = rp.opt("avg_output_len"), rp.opt("steady_state_duration_s")
	if r.outputLen == nil && r.energyRequest == nil {
		rp.fail("avg_output_len", "is missing, and so is energy_per_request_joules to derive it from")
	}
	if rp.ok {
		rp.plausible(r)
	}
	r.content = rowContent(rp.m)
	return r
}

// rowContent identifies a row object (decoded with UseNumber) by its
// content, whatever its key order, white space or spelling of numbers and
// strings: the stability rule leaves out an exact duplicate.
func rowContent(m map[string]any) [sha256.Size]byte {
	b, _ := json.Marshal(canonical(m)) // keys sorted; a decoded value always encodes
	return sha256.Sum256(b)
}

// canonical is a decoded JSON value with each number as its float64, or
// as written when it is out of float64's range; it changes v in place.
func canonical(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = canonical(x)
		}
	case []any:
		for i, x := range v {
			v[i] = canonical(x)
		}
	case json.Number:
		if x, err := strconv.ParseFloat(string(v), 64); err == nil {
			return x
		}
	}
	return v
}

// plausible reports values no measurement can have: one outside its
// bounds (a non-positive energy is the stability filter's), an average
// batch above max_num_seqs, ITL percentiles that decrease.
func (rp *rowParser) plausible(r *lbRow) {
	bounded := func(key string, x, lo, hi float64, unit string) {
		if x < lo {
			rp.fail(key, "is %s%s, below the %v%s plausibility bound", rawText(x), unit, lo, unit)
		} else if x > hi {
			rp.fail(key, "is %s%s, above the %v%s plausibility bound", rawText(x), unit, hi, unit)
		}
	}
	if r.energy != nil && finite(*r.energy) && *r.energy > 0 {
		bounded("energy_per_token_joules", *r.energy, minJoulesPerToken, maxJoulesPerToken, " J")
	}
	if perGPU := r.power / float64(r.numGPUs); perGPU > maxWattsPerGPU || perGPU < minWattsPerGPU {
		side, b := "above", maxWattsPerGPU
		if perGPU < minWattsPerGPU {
			side, b = "below", minWattsPerGPU
		}
		rp.fail("avg_power_watts", "is %s W over %d GPUs, %s the %v W per GPU plausibility bound", rawText(r.power), r.numGPUs, side, b)
	}
	bounded("output_throughput_tokens_per_sec", r.throughput, minTokensPerSecond, maxTokensPerSecond, " tokens/s")
	pct := []string{"median_itl_ms", "p90_itl_ms", "p95_itl_ms", "p99_itl_ms"}
	val := []float64{r.medianITL, r.p90, r.p95, r.p99}
	for i := range val {
		bounded(pct[i], val[i], 0, maxITLMS, " ms")
		if i > 0 && val[i] < val[i-1] {
			rp.fail(pct[i], "is %s, below %s %s", rawText(val[i]), pct[i-1], rawText(val[i-1]))
		}
	}
	if r.outputLen != nil {
		bounded("avg_output_len", *r.outputLen, minOutputTokens, maxOutputTokens, " tokens")
	} else if r.energy != nil && finite(*r.energy) && *r.energy > 0 && r.energyRequest != nil {
		if n := *r.energyRequest / *r.energy; !(n >= minOutputTokens && n <= maxOutputTokens) {
			rp.fail("energy_per_request_joules", "is %s J, which over %s J per token gives an average output length of %s tokens, outside the plausibility bounds %v to %v",
				rawText(*r.energyRequest), rawText(*r.energy), rawText(n), minOutputTokens, maxOutputTokens)
		}
	}
	bounded("total_params_billions", r.totalParams, minParamsB, maxParamsB, " billion")
	bounded("activated_params_billions", r.activeParams, minParamsB, maxParamsB, " billion")
	bounded("avg_batch_size", r.avgBatch, 0, maxRunningBatch, "")
	if r.avgBatch > float64(r.maxNumSeqs) {
		rp.fail("avg_batch_size", "is %s, above max_num_seqs %d", rawText(r.avgBatch), r.maxNumSeqs)
	}
}

// rowParser reads typed fields of one upstream row, reporting each bad one
// on the row, where.
type rowParser struct {
	ps    *problems
	where string
	m     map[string]any // decoded with UseNumber
	ok    bool
}

func (rp *rowParser) fail(key, format string, a ...any) {
	rp.ps.add(rp.where, key, format, a...)
	rp.ok = false
}

// gpuModel returns gpu_model, held to the published rule (gpuName).
func (rp *rowParser) gpuModel() string {
	gpu := rp.str("gpu_model")
	if gpu != "" && !gpuName.MatchString(gpu) {
		rp.fail("gpu_model", "is %q, not a plain GPU name of at most 40 bytes", gpu)
	}
	return gpu
}

func (rp *rowParser) str(key string) string {
	v, present := rp.m[key]
	if !present || v == nil {
		rp.fail(key, "is missing")
		return ""
	}
	s, ok := v.(string)
	if !ok {
		rp.fail(key, "is %v, not a string", v)
		return ""
	}
	if s == "" {
		rp.fail(key, "is empty")
	}
	return s
}

// opt returns an optional number (nil when absent or null). JSON has no
// NaN or infinity, and a number beyond float64's range is reported.
func (rp *rowParser) opt(key string) *float64 {
	v, present := rp.m[key]
	if !present || v == nil {
		return nil
	}
	n, ok := v.(json.Number)
	if !ok {
		rp.fail(key, "is %q, not a number", fmt.Sprint(v))
		return nil
	}
	x, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		// An overflow (1e400) is no more a figure than text is.
		rp.fail(key, "is %s, not a number in float64 range", n)
		return nil
	}
	if x == 0 {
		x = 0 // -0 is 0
	}
	return &x
}

// num returns a required finite, non-negative number, or NaN.
func (rp *rowParser) num(key string) float64 {
	p := rp.opt(key)
	switch {
	case p == nil && rp.m[key] == nil: // absent or null
		rp.fail(key, "is missing")
	case p == nil: // reported by opt
	case !finite(*p) || *p < 0:
		rp.fail(key, "is %v, not a finite, non-negative number", *p)
	default:
		return *p
	}
	return math.NaN()
}

// whole returns a required whole number from least to 2^20.
func (rp *rowParser) whole(key string, least int) int {
	x := rp.num(key)
	if math.IsNaN(x) {
		return 0
	}
	if x != math.Trunc(x) || x < float64(least) || x > 1<<20 {
		rp.fail(key, "is %v, not a whole number from %d to %d", x, least, 1<<20)
		return 0
	}
	return int(x)
}
