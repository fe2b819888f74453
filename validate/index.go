package validate

// The independent recomputation of index.json. It shares no code with
// transform/: it re-reads the archived task files, re-applies the stability
// filter and the 500 ms selection, recomputes every figure of index.json
// (rounded once, from the unrounded upstream values) and compares the
// published file with it, figure by figure and then byte for byte. Its
// unexported names start with idx, to keep clear of the package's other files.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Paths of the files the index check reads, relative to a snapshot folder.
const (
	IndexPath        = "index.json"
	IndexChatTask    = "sources/leaderboard/tasks/lm-arena-chat.json"
	IndexProblemTask = "sources/leaderboard/tasks/gpqa.json"
)

// idxMaxProblems caps the mismatches one check reports.
const idxMaxProblems = 50

func init() { Register("index", idxSnapshotCheck) }

// idxSnapshotCheck is the snapshot check: a snapshot with index.json must
// archive both task files, and IndexFile's checks must pass against its
// model files. A snapshot without index.json (built before the index
// existed) is not checked here.
func idxSnapshotCheck(s *Snap) []Problem {
	if s.Output(IndexPath) == nil && !s.OnDisk(IndexPath) {
		return nil
	}
	read := func(p string) ([]byte, []Problem) {
		b, err := s.Read(p)
		if err != nil {
			return nil, []Problem{{File: p, Msg: fmt.Sprintf("cannot be read (%s is computed from it): %v", IndexPath, err)}}
		}
		return b, nil
	}
	chat, probs := read(IndexChatTask)
	if probs != nil {
		return probs
	}
	gpqa, probs := read(IndexProblemTask)
	if probs != nil {
		return probs
	}
	index, probs := read(IndexPath)
	if probs != nil {
		return probs
	}
	models := map[string][]byte{}
	for _, p := range s.Files {
		if strings.HasPrefix(p, "models/") && strings.HasSuffix(p, ".json") && !strings.Contains(p[len("models/"):], "/") {
			b, probs := read(p)
			if probs != nil {
				return probs
			}
			models[p] = b
		}
	}
	return idxCheck(chat, gpqa, index, models)
}

// IndexInSnapshot runs IndexFile on a snapshot folder: DIR/index.json, every
// DIR/models/*.json, and the archived task files under DIR/sources/.
func IndexInSnapshot(dir string) error {
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(p))) }
	chat, err := read(IndexChatTask)
	if err != nil {
		return err
	}
	gpqa, err := read(IndexProblemTask)
	if err != nil {
		return err
	}
	index, err := read(IndexPath)
	if err != nil {
		return err
	}
	paths, err := filepath.Glob(filepath.Join(dir, "models", "*.json"))
	if err != nil {
		return err
	}
	models := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		models["models/"+filepath.Base(p)] = b
	}
	return IndexFile(chat, gpqa, index, models)
}

// IndexFile checks index.json (indexJSON) against the archived Text
// Conversation (chatTask) and Problem Solving (gpqaTask) task files and the
// snapshot's model files (modelFiles, keyed by path: "models/SLUG.json").
// Every figure is recomputed from the task files; every model entry must
// agree with its model file; the header must agree with the model files'.
// It returns nil, or an error listing every problem, one per line, each
// naming the file, the entry (list, model, GPU) and the field:
//
//	index.json: gpu_comparisons, model qwen-3-32b: energy_per_token_ratio is 1.64, recomputed 1.63 from the archived task files
func IndexFile(chatTask, gpqaTask, indexJSON []byte, modelFiles map[string][]byte) error {
	return problemsError("index", idxCheck(chatTask, gpqaTask, indexJSON, modelFiles))
}

// idxFail is a problem that stops the check.
type idxFail struct{ Problem }

func (f *idxFail) Error() string { return f.String() }

func idxFailf(file, where, field, format string, a ...any) error {
	return &idxFail{Problem{File: file, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)}}
}

func idxCheck(chatTask, gpqaTask, indexJSON []byte, modelFiles map[string][]byte) []Problem {
	fail := func(err error) []Problem {
		var f *idxFail
		if errors.As(err, &f) {
			return []Problem{f.Problem}
		}
		return []Problem{{File: IndexPath, Msg: err.Error()}}
	}
	chat, err := idxParseTask("lm-arena-chat", chatTask)
	if err != nil {
		return fail(err)
	}
	gpqa, err := idxParseTask("gpqa", gpqaTask)
	if err != nil {
		return fail(err)
	}
	if len(modelFiles) == 0 {
		return []Problem{{File: IndexPath, Msg: "has no model files to be checked against"}}
	}
	var actual any
	dec := json.NewDecoder(bytes.NewReader(indexJSON))
	dec.UseNumber()
	if err := dec.Decode(&actual); err != nil {
		return []Problem{{File: IndexPath, Msg: fmt.Sprintf("is not valid JSON: %v", err)}}
	}
	if dec.More() {
		return []Problem{{File: IndexPath, Msg: "has data after the top-level value"}}
	}
	files, err := idxReadModels(modelFiles)
	if err != nil {
		return fail(err)
	}
	want, err := idxExpected(chat, gpqa, files)
	if err != nil {
		return fail(err)
	}

	c := &idxCompare{}
	c.value(want, actual, nil)
	if len(c.probs) == 0 {
		// Figures agree: the bytes must too (key order, indentation, number
		// spelling, no trailing newline).
		if got := idxMarshal(want); !bytes.Equal(got, indexJSON) {
			line := 1 + bytes.Count(got[:idxCommonPrefix(got, indexJSON)], []byte("\n"))
			c.probs = append(c.probs, Problem{File: IndexPath, Msg: fmt.Sprintf("line %d: the layout differs from the recomputed file (key order, indentation or trailing newline)", line)})
		}
	}
	return c.probs
}

func idxCommonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// ---- the archived task files ----

// idxRow is one configuration row of a task file, unrounded.
type idxRow struct {
	task, file string
	index      int

	modelID, nickname, gpu, precision, architecture string
	numGPUs, tp, dp, ep, maxNumSeqs                 int
	totalParams, activeParams                       float64
	batch, medianITL, p90, p95, p99, throughput     float64
	power                                           float64
	energy, energyRequest, outputLen, steady        *float64
	// content identifies the row's whole content: an exact duplicate of an
	// earlier row is left out (rowContentRaw).
	content [32]byte

	// Set once the rows are grouped.
	slug   string
	repeat int
}

func (r *idxRow) where() string {
	return fmt.Sprintf("configurations[%d] (%s on %d x %s, max_num_seqs %d)", r.index, r.modelID, r.numGPUs, r.gpu, r.maxNumSeqs)
}

func idxParseTask(task string, data []byte) ([]*idxRow, error) {
	file := "sources/leaderboard/tasks/" + task + ".json"
	var doc struct {
		Task           string                       `json:"task"`
		Configurations []map[string]json.RawMessage `json:"configurations"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, idxFailf(file, "", "", "cannot be decoded: %v", err)
	}
	if doc.Task != task {
		return nil, idxFailf(file, "", "task", "is %q, want %q", doc.Task, task)
	}
	rows := make([]*idxRow, 0, len(doc.Configurations))
	for i, m := range doc.Configurations {
		r := &idxRow{task: task, file: file, index: i}
		var bad error
		str := func(k string) string {
			var s string
			if err := json.Unmarshal(m[k], &s); (err != nil || s == "") && bad == nil {
				bad = fmt.Errorf("field %q: missing or not a string", k)
			}
			return s
		}
		opt := func(k string) *float64 {
			raw, ok := m[k]
			if !ok || string(raw) == "null" {
				return nil
			}
			var x float64
			if err := json.Unmarshal(raw, &x); err != nil && bad == nil {
				bad = fmt.Errorf("field %q: %s is not a number", k, raw)
			}
			return &x
		}
		num := func(k string) float64 {
			p := opt(k)
			if p == nil || math.IsNaN(*p) || math.IsInf(*p, 0) || *p < 0 {
				if bad == nil {
					bad = fmt.Errorf("field %q: missing or not a finite, non-negative number", k)
				}
				return math.NaN()
			}
			return *p
		}
		// Parallelism degrees may be 0: task files before 2025-12-15 write 0
		// for a parallelism not used.
		whole := func(k string, least float64) int {
			x := num(k)
			if bad == nil && (x != math.Trunc(x) || x < least || x > 1<<20) {
				bad = fmt.Errorf("field %q: %v is not a whole number from %v", k, x, least)
			}
			if bad != nil {
				return 0
			}
			return int(x)
		}
		r.modelID, r.nickname, r.gpu = str("model_id"), str("nickname"), str("gpu_model")
		r.precision, r.architecture = str("weight_precision"), str("architecture")
		r.numGPUs, r.maxNumSeqs = whole("num_gpus", 1), whole("max_num_seqs", 1)
		r.tp, r.dp, r.ep = whole("tensor_parallel", 0), whole("data_parallel", 0), whole("expert_parallel", 0)
		r.totalParams, r.activeParams = num("total_params_billions"), num("activated_params_billions")
		r.batch, r.medianITL = num("avg_batch_size"), num("median_itl_ms")
		r.p90, r.p95, r.p99 = num("p90_itl_ms"), num("p95_itl_ms"), num("p99_itl_ms")
		r.throughput, r.power = num("output_throughput_tokens_per_sec"), num("avg_power_watts")
		r.energy, r.energyRequest = opt("energy_per_token_joules"), opt("energy_per_request_joules")
		r.outputLen, r.steady = opt("avg_output_len"), opt("steady_state_duration_s")
		if bad != nil {
			return nil, idxFailf(file, fmt.Sprintf("configurations[%d]", i), "", "%v", bad)
		}
		r.content = rowContentRaw(m)
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, idxFailf(file, "", "configurations", "is missing or empty")
	}
	return idxStable(rows), nil
}

// idxStable keeps the stable rows, in upstream order: steady state of at
// least 20 s where given, a finite positive energy per token, an average
// batch of at least 0.85 x max_num_seqs; and within one model, GPU and GPU
// count nothing at or above the smallest unstable cap.
func idxStable(rows []*idxRow) []*idxRow {
	type group struct {
		model, gpu string
		n          int
	}
	unstable := func(r *idxRow) bool {
		e := r.energy
		return (r.steady != nil && *r.steady < 20) || e == nil || math.IsNaN(*e) || math.IsInf(*e, 0) || *e <= 0 ||
			r.batch < 0.85*float64(r.maxNumSeqs)
	}
	dup := map[*idxRow]bool{}
	seen := map[[32]byte]bool{}
	for _, r := range rows {
		dup[r] = seen[r.content]
		seen[r.content] = true
	}
	smallest := map[group]int{}
	for _, r := range rows {
		if dup[r] || !unstable(r) {
			continue
		}
		g := group{r.modelID, r.gpu, r.numGPUs}
		if c, ok := smallest[g]; !ok || r.maxNumSeqs < c {
			smallest[g] = r.maxNumSeqs
		}
	}
	var out []*idxRow
	for _, r := range rows {
		c, ok := smallest[group{r.modelID, r.gpu, r.numGPUs}]
		if dup[r] || unstable(r) || ok && r.maxNumSeqs >= c {
			continue
		}
		out = append(out, r)
	}
	return out
}

func (r *idxRow) outputTokens() (float64, error) {
	if r.outputLen != nil {
		return *r.outputLen, nil
	}
	if r.energyRequest == nil || *r.energy <= 0 {
		return 0, idxFailf(r.file, r.where(), "avg_output_len", "is missing, and it cannot be derived")
	}
	return *r.energyRequest / *r.energy, nil
}

func (r *idxRow) whPerMillion() float64 { return *r.energy * 1e6 / 3600 }

func (r *idxRow) rowID() string {
	id := r.slug + "/"
	if r.task != "lm-arena-chat" {
		id += r.task + "/"
	}
	id += fmt.Sprintf("%s/%d/%d", r.gpu, r.numGPUs, r.maxNumSeqs)
	if r.repeat > 1 {
		id += "/r" + strconv.Itoa(r.repeat)
	}
	return id
}

var idxSlugRun = regexp.MustCompile(`[^a-z0-9]+`)

func idxSlug(nickname string) string {
	return strings.Trim(idxSlugRun.ReplaceAllString(strings.ToLower(nickname), "-"), "-")
}

// idxModel is one model's stable rows of one task, in the model files'
// order (GPU, GPU count, cap, upstream order), with its best row per GPU.
type idxModel struct {
	id, slug string
	rows     []*idxRow
	best     map[string]*idxRow
}

// idxGroup groups stable rows by model, names them (slug: the Text
// Conversation slug where given, else from the nickname), numbers repeats and
// picks the best row of each GPU.
func idxGroup(rows []*idxRow, slugs map[string]string) map[string]*idxModel {
	out := map[string]*idxModel{}
	for _, r := range rows {
		m := out[r.modelID]
		if m == nil {
			slug, ok := slugs[r.modelID]
			if !ok {
				slug = idxSlug(r.nickname)
			}
			m = &idxModel{id: r.modelID, slug: slug, best: map[string]*idxRow{}}
			out[r.modelID] = m
		}
		r.slug = m.slug
		m.rows = append(m.rows, r)
	}
	for _, m := range out {
		sort.SliceStable(m.rows, func(i, j int) bool {
			a, b := m.rows[i], m.rows[j]
			if a.gpu != b.gpu {
				return a.gpu < b.gpu
			}
			if a.numGPUs != b.numGPUs {
				return a.numGPUs < b.numGPUs
			}
			if a.maxNumSeqs != b.maxNumSeqs {
				return a.maxNumSeqs < b.maxNumSeqs
			}
			return a.index < b.index
		})
		for i, r := range m.rows {
			r.repeat = 1
			if i > 0 {
				p := m.rows[i-1]
				if p.gpu == r.gpu && p.numGPUs == r.numGPUs && p.maxNumSeqs == r.maxNumSeqs {
					r.repeat = p.repeat + 1
				}
			}
			if r.medianITL > 500 {
				continue
			}
			b, ok := m.best[r.gpu]
			if !ok || *r.energy < *b.energy ||
				*r.energy == *b.energy && (r.numGPUs < b.numGPUs ||
					r.numGPUs == b.numGPUs && (r.maxNumSeqs < b.maxNumSeqs ||
						r.maxNumSeqs == b.maxNumSeqs && r.repeat < b.repeat)) {
				m.best[r.gpu] = r
			}
		}
	}
	return out
}

// ---- numbers, printed as the published files print them ----

// idxNum is a number as printed in the file.
type idxNum string

// idxFloat prints x in shortest round-trip form with ".0" when integral.
func idxFloat(x float64) idxNum {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsRune(s, '.') {
		s += ".0"
	}
	return idxNum(s)
}

// idxRound rounds once to d decimals, half to even on the binary value.
func idxRound(x float64, d int) idxNum {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
	return idxFloat(v)
}

// idxSig3 rounds once to 3 significant figures.
func idxSig3(x float64) idxNum {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', 2, 64), 64)
	return idxFloat(v)
}

func idxWhole(x float64) idxNum {
	v, _ := strconv.ParseInt(strconv.FormatFloat(x, 'f', 0, 64), 10, 64)
	return idxNum(strconv.FormatInt(v, 10))
}

func idxInt(n int) idxNum { return idxNum(strconv.Itoa(n)) }

// ---- the expected file ----

// idxObj is a JSON object with its keys in order.
type idxObj struct {
	keys []string
	vals map[string]any
}

func idxO(kv ...any) *idxObj {
	o := &idxObj{vals: map[string]any{}}
	for i := 0; i < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

func (o *idxObj) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

var idxPrecisions = map[string]string{"bfloat16": "BF16", "fp8": "FP8"}

// idxConfig is a configuration as the model files print it.
func idxConfig(r *idxRow) (*idxObj, error) {
	p, ok := idxPrecisions[r.precision]
	if !ok {
		return nil, idxFailf(r.file, r.where(), "weight_precision", "is %q, an unknown precision", r.precision)
	}
	n, err := r.outputTokens()
	if err != nil {
		return nil, err
	}
	return idxO(
		"gpu", r.gpu, "num_gpus", idxInt(r.numGPUs), "tensor_parallel", idxInt(r.tp),
		"data_parallel", idxInt(r.dp), "expert_parallel", idxInt(r.ep), "precision", p,
		"max_num_seqs", idxInt(r.maxNumSeqs), "avg_requests_in_flight", idxRound(r.batch, 1),
		"wh_per_million_output_tokens", idxRound(r.whPerMillion(), 2),
		"joules_per_output_token", idxRound(*r.energy, 7),
		"median_itl_ms", idxRound(r.medianITL, 1), "p90_itl_ms", idxRound(r.p90, 1), "p99_itl_ms", idxRound(r.p99, 1),
		"tokens_per_second", idxRound(r.throughput, 1), "gpu_power_watts_total", idxWhole(r.power),
		"avg_output_tokens", idxWhole(n), "under_itl_deadline", r.medianITL <= 500,
		"avg_running_batch", idxRound(r.batch, 1), "p95_itl_ms", idxRound(r.p95, 1),
		"row_id", r.rowID(), "repeat", idxInt(r.repeat),
	), nil
}

// idxRef is a row reference of index.json.
func idxRef(r *idxRow) (*idxObj, error) {
	n, err := r.outputTokens()
	if err != nil {
		return nil, err
	}
	return idxO(
		"row_id", r.rowID(), "num_gpus", idxInt(r.numGPUs), "max_num_seqs", idxInt(r.maxNumSeqs),
		"avg_running_batch", idxRound(r.batch, 1), "wh_per_million_output_tokens", idxRound(r.whPerMillion(), 2),
		"joules_per_output_token", idxRound(*r.energy, 7), "median_itl_ms", idxRound(r.medianITL, 1),
		"tokens_per_second", idxRound(r.throughput, 1), "gpu_power_watts_total", idxWhole(r.power),
		"avg_output_tokens", idxWhole(n),
	), nil
}

func idxTaskRef(r *idxRow) (*idxObj, float64, error) {
	o, err := idxRef(r)
	if err != nil {
		return nil, 0, err
	}
	n, _ := r.outputTokens()
	perResponse := *r.energy * n
	o.set("joules_per_response", idxRound(perResponse, 1))
	return o, perResponse, nil
}

// idxModelFile is what the check reads from a model file.
type idxModelFile struct {
	path string
	doc  map[string]any
}

func idxReadModels(files map[string][]byte) (map[string]*idxModelFile, error) {
	out := map[string]*idxModelFile{}
	for path, data := range files {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var doc map[string]any
		if err := dec.Decode(&doc); err != nil {
			return nil, idxFailf(path, "", "", "is not valid JSON: %v", err)
		}
		slug, _ := doc["slug"].(string)
		if path != "models/"+slug+".json" {
			return nil, idxFailf(path, "", "slug", "is %q, which does not match the file name", slug)
		}
		out[slug] = &idxModelFile{path: path, doc: doc}
	}
	return out, nil
}

func idxExpected(chatRows, gpqaRows []*idxRow, files map[string]*idxModelFile) (any, error) {
	chat := idxGroup(chatRows, nil)
	slugs := map[string]string{}
	var ids []string
	for id, m := range chat {
		slugs[id] = m.slug
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return chat[ids[i]].slug < chat[ids[j]].slug })
	gpqa := idxGroup(gpqaRows, slugs)

	// The header repeats the model files' dates and source fields; they
	// must all agree.
	var first *idxModelFile
	for _, id := range ids {
		f := files[chat[id].slug]
		if f == nil {
			return nil, idxFailf("models/"+chat[id].slug+".json", "", "", "is missing: %s has stable rows of %s (%s)", IndexChatTask, id, chat[id].slug)
		}
		if first == nil {
			first = f
			continue
		}
		for _, k := range []string{"updated", "data_version", "unit", "source"} {
			if !idxEqual(f.doc[k], first.doc[k]) {
				return nil, idxFailf(f.path, "", k, "differs from %s's; every model file of a snapshot has the same", first.path)
			}
		}
	}
	for slug, f := range files {
		id := idxModelID(f)
		if m := chat[id]; m == nil || m.slug != slug {
			return nil, idxFailf(f.path, "", "model_id", "is %q, a model without stable rows in %s", id, IndexChatTask)
		}
	}
	src, _ := first.doc["source"].(map[string]any)
	header := idxO(
		"version", "1", "updated", first.doc["updated"], "data_version", first.doc["data_version"],
		"unit", "Wh per million output tokens", "itl_deadline_ms", idxInt(500),
		"source", idxO(
			"name", src["name"], "version", src["version"], "released", src["released"],
			"compiled", src["compiled"], "retrieved", src["retrieved"], "licence", src["licence"], "cite", src["cite"],
			"details", "each model file's source block (models/SLUG.json, key source) holds the full text: publisher, method, selection, licence evidence",
			"tasks", []any{
				idxO("task", "lm-arena-chat", "name", "Text Conversation", "file", IndexChatTask, "stable_configurations", idxInt(len(chatRows))),
				idxO("task", "gpqa", "name", "Problem Solving", "file", IndexProblemTask, "stable_configurations", idxInt(len(gpqaRows))),
			},
		),
	)

	models, gpuCmp, taskCmp, curves := []any{}, []any{}, []any{}, []any{}
	for _, id := range ids {
		m := chat[id]
		f := files[m.slug]
		r0 := m.rows[0]
		var gpus []any
		best := &idxObj{vals: map[string]any{}}
		var bestGPUs []string
		for gpu := range m.best {
			bestGPUs = append(bestGPUs, gpu)
		}
		sort.Strings(bestGPUs)
		for _, r := range m.rows {
			if len(gpus) == 0 || gpus[len(gpus)-1] != r.gpu {
				gpus = append(gpus, r.gpu)
			}
			if r.nickname != r0.nickname || r.totalParams != r0.totalParams || r.activeParams != r0.activeParams || r.architecture != r0.architecture {
				return nil, idxFailf(r.file, r.where(), "", "name, parameters or architecture differ from %s", r0.where())
			}
		}
		for _, gpu := range bestGPUs {
			c, err := idxConfig(m.best[gpu])
			if err != nil {
				return nil, err
			}
			best.set(gpu, c)
		}
		entry := idxO(
			"slug", m.slug, "name", r0.nickname, "model_id", m.id,
			"params_b", idxFloat(r0.totalParams), "active_params_b", idxFloat(r0.activeParams),
			"architecture", r0.architecture, "configurations", idxInt(len(m.rows)), "gpus", gpus,
			"file", "models/"+m.slug+".json", "best", best,
		)
		// The model file must say the same.
		for _, k := range []string{"name", "model_id", "params_b", "active_params_b", "architecture", "gpus", "best"} {
			if !idxEqual(idxPlain(entry.vals[k]), f.doc[k]) {
				return nil, idxFailf(f.path, "", k, "is %s, but %s gives %s", idxShow(f.doc[k]), IndexChatTask, idxShow(idxPlain(entry.vals[k])))
			}
		}
		if cs, _ := f.doc["configurations"].([]any); len(cs) != len(m.rows) {
			return nil, idxFailf(f.path, "", "configurations", "has %d rows, but %s has %d stable rows of the model", len(cs), IndexChatTask, len(m.rows))
		}
		models = append(models, entry)

		if h, ok := m.best["H100"]; ok {
			if b, ok := m.best["B200"]; ok {
				rh, err := idxRef(h)
				if err != nil {
					return nil, err
				}
				rb, err := idxRef(b)
				if err != nil {
					return nil, err
				}
				gpuCmp = append(gpuCmp, idxO("slug", m.slug, "h100", rh, "b200", rb, "energy_per_token_ratio", idxSig3(*h.energy / *b.energy)))
			}
		}
		for _, gpu := range bestGPUs {
			c := m.best[gpu]
			curve, err := idxCurve(m, c)
			if err != nil {
				return nil, err
			}
			curves = append(curves, curve)

			pm := gpqa[id]
			if pm == nil || pm.best[gpu] == nil {
				continue
			}
			p := pm.best[gpu]
			tc, ce, err := idxTaskRef(c)
			if err != nil {
				return nil, err
			}
			tp, pe, err := idxTaskRef(p)
			if err != nil {
				return nil, err
			}
			taskCmp = append(taskCmp, idxO(
				"slug", m.slug, "gpu", gpu, "text_conversation", tc, "problem_solving", tp,
				"energy_per_response_ratio", idxSig3(pe/ce), "energy_per_token_ratio", idxSig3(*p.energy / *c.energy),
			))
		}
	}
	header.set("models", models)
	header.set("gpu_comparisons", gpuCmp)
	header.set("task_comparisons", taskCmp)
	header.set("load_curves", curves)
	return header, nil
}

func idxModelID(f *idxModelFile) string { s, _ := f.doc["model_id"].(string); return s }

// idxCurve is the load curve of index row best, over the model's rows on
// its GPU at its GPU count.
func idxCurve(m *idxModel, best *idxRow) (*idxObj, error) {
	var from, top, past *idxRow
	for _, r := range m.rows {
		if r.gpu != best.gpu || r.numGPUs != best.numGPUs {
			continue
		}
		if from == nil {
			from = r
		}
		if r.maxNumSeqs <= best.maxNumSeqs {
			if top == nil || r.medianITL > top.medianITL {
				top = r
			}
		} else if past == nil {
			past = r
		}
	}
	if from.power <= 0 || from.throughput <= 0 {
		return nil, idxFailf(from.file, from.where(), "", "zero power or throughput: the load curve has no ratio")
	}
	rf, err := idxRef(from)
	if err != nil {
		return nil, err
	}
	rt, err := idxRef(best)
	if err != nil {
		return nil, err
	}
	var rp any // JSON null
	if past != nil {
		if rp, err = idxRef(past); err != nil {
			return nil, err
		}
	}
	return idxO(
		"slug", m.slug, "gpu", best.gpu, "num_gpus", idxInt(best.numGPUs), "from", rf, "to", rt,
		"energy_per_token_fall", idxSig3(*from.energy / *best.energy),
		"gpu_power_rise_percent", idxWhole((best.power/from.power-1)*100),
		"throughput_rise", idxSig3(best.throughput/from.throughput),
		"max_median_itl_ms", idxRound(top.medianITL, 1), "max_median_itl_row_id", top.rowID(),
		"past", rp,
	), nil
}

// ---- comparing ----

// idxPlain turns an expected value into the shape json.Decoder with
// UseNumber gives, for comparison with a decoded file.
func idxPlain(v any) any {
	switch v := v.(type) {
	case *idxObj:
		m := make(map[string]any, len(v.keys))
		for _, k := range v.keys {
			m[k] = idxPlain(v.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = idxPlain(x)
		}
		return out
	case idxNum:
		return json.Number(v)
	}
	return v
}

func idxEqual(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !idxEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !idxEqual(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

type idxCompare struct{ probs []Problem }

func (c *idxCompare) fail(path []string, format string, a ...any) {
	switch {
	case len(c.probs) == idxMaxProblems:
		c.probs = append(c.probs, Problem{File: IndexPath, Msg: "more mismatches not shown"})
		return
	case len(c.probs) > idxMaxProblems:
		return
	}
	where, field := idxPlace(path)
	c.probs = append(c.probs, Problem{File: IndexPath, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)})
}

// idxPlace names a place in the file: the list and its entry (model, GPU)
// as Where, then the field within the entry.
func idxPlace(path []string) (where, field string) {
	if len(path) >= 2 && strings.HasPrefix(path[1], "[") {
		where = path[0] + ", " + strings.Trim(path[1], "[]")
		path = path[2:]
	}
	var f strings.Builder
	for _, p := range path {
		if f.Len() > 0 && !strings.HasPrefix(p, "[") {
			f.WriteByte('.')
		}
		f.WriteString(p)
	}
	return where, f.String()
}

func idxShow(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case json.Number:
		return string(v)
	case string:
		return strconv.Quote(v)
	case map[string]any:
		return "an object"
	case []any:
		return fmt.Sprintf("an array of %d", len(v))
	}
	return fmt.Sprint(v)
}

// idxEntryKey names an array element: "model SLUG" or "model SLUG on GPU"
// for the index's entries, the task id for the task list.
func idxEntryKey(v any, i int) string {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("item %d", i)
	}
	if t, ok := m["task"].(string); ok {
		return "task " + t
	}
	slug, ok := m["slug"].(string)
	if !ok {
		return fmt.Sprintf("item %d", i)
	}
	if gpu, ok := m["gpu"].(string); ok {
		return "model " + slug + " on " + gpu
	}
	return "model " + slug
}

func (c *idxCompare) value(want, got any, path []string) {
	switch w := want.(type) {
	case *idxObj:
		g, ok := got.(map[string]any)
		if !ok {
			c.fail(path, "is %s, want an object", idxShow(got))
			return
		}
		for _, k := range w.keys {
			v, ok := g[k]
			if !ok {
				c.fail(append(path, k), "is missing")
				continue
			}
			c.value(w.vals[k], v, append(path[:len(path):len(path)], k))
		}
		for k := range g {
			if _, ok := w.vals[k]; !ok {
				c.fail(append(path, k), "is not a key of %s", IndexPath)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			c.fail(path, "is %s, want an array", idxShow(got))
			return
		}
		// Elements are matched by their key (model, GPU), so a missing
		// entry is named rather than shifting every later one.
		byKey := map[string]any{}
		for i, x := range g {
			byKey[idxEntryKey(x, i)] = x
		}
		seen := map[string]bool{}
		for i, x := range w {
			k := idxEntryKey(idxPlain(x), i)
			seen[k] = true
			v, ok := byKey[k]
			if !ok {
				if _, isObj := x.(*idxObj); isObj {
					c.fail(append(path, "["+k+"]"), "is missing: the task files give this entry")
				} else {
					c.fail(path, "is %s, recomputed %s", idxShow(got), idxShow(idxPlain(want)))
					return
				}
				continue
			}
			c.value(x, v, append(path[:len(path):len(path)], "["+k+"]"))
		}
		for i, x := range g {
			if k := idxEntryKey(x, i); !seen[k] {
				c.fail(append(path, "["+k+"]"), "is an entry the task files do not give")
			}
		}
	default:
		if wp := idxPlain(want); !idxEqual(wp, got) {
			c.fail(path, "is %s, recomputed %s from the archived task files", idxShow(got), idxShow(wp))
		}
	}
}

// ---- the expected bytes ----

// idxMarshal prints the expected file as the published files are printed:
// keys in order, two-space indentation, no HTML escaping, no trailing newline.
func idxMarshal(v any) []byte {
	var compact bytes.Buffer
	idxWrite(&compact, v)
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		panic("validate: index: " + err.Error()) // the writer above always writes valid JSON
	}
	return out.Bytes()
}

func idxWrite(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case *idxObj:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			idxWrite(b, k)
			b.WriteByte(':')
			idxWrite(b, v.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			idxWrite(b, x)
		}
		b.WriteByte(']')
	case map[string]any: // copied from a model file: keys sorted, as Go prints maps
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := &idxObj{keys: keys, vals: v}
		idxWrite(b, o)
	case idxNum:
		b.WriteString(string(v))
	case json.Number:
		b.WriteString(string(v))
	case string:
		e := json.NewEncoder(b)
		e.SetEscapeHTML(false)
		_ = e.Encode(v)
		b.Truncate(b.Len() - 1) // Encode's newline
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("validate: index: cannot print %T", v))
	}
}
