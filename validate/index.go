package validate

// The independent recomputation of index.json. It shares no code with
// transform/: it takes the archived task files' rows as this package parses
// and filters them for the model files (parseTask, filterStable: one reading
// of upstream for every check), re-applies the 500 ms selection, recomputes
// every figure of index.json (rounded once, from the unrounded upstream
// values) and compares the published file with it, figure by figure and then
// byte for byte. Its unexported names start with idx, to keep clear of the
// package's other files.
//
// Memory does not grow with the size of index.json: the model files are read
// one at a time, and the recomputed file is printed one entry at a time and
// compared with the published bytes as they stream in. Only when the bytes
// differ is the published file decoded, again one entry at a time, to name
// each differing figure.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
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

// idxSource is what the index check reads: the two task files, parsed and
// filtered; the model files, read one at a time; index.json, streamed (it
// may be opened twice).
type idxSource struct {
	chat, gpqa *taskData
	// reportedElsewhere reports whether another check reports a task
	// file's parse problems (nil: none does).
	reportedElsewhere func(*taskData) bool
	models            []string // model file paths ("models/SLUG.json"), sorted
	readModel         func(path string) ([]byte, error)
	openIndex         func() (io.ReadCloser, error)
}

// idxCannotRead is the problem of an input that cannot be read.
func idxCannotRead(p string, err error) []Problem {
	return []Problem{{File: p, Msg: fmt.Sprintf("cannot be read (%s is computed from it): %v", IndexPath, err)}}
}

// isModelPath reports whether p is a model file's path: models/SLUG.json.
func isModelPath(p string) bool {
	return strings.HasPrefix(p, "models/") && strings.HasSuffix(p, ".json") && !strings.Contains(p[len("models/"):], "/")
}

// idxSnapshotCheck is the snapshot check: a snapshot with index.json must
// archive both task files, and IndexFile's checks must pass against its
// model files. A snapshot without index.json (built before the index
// existed) is not checked here. The task files are the ones the leaderboard
// check parses (Snap.task, once): their problems are reported once, by the
// leaderboard check when it reads them.
func idxSnapshotCheck(s *Snap) []Problem {
	if s.Output(IndexPath) == nil && !s.OnDisk(IndexPath) {
		return nil
	}
	chat := s.task(taskChat, IndexChatTask)
	if chat.readErr != nil {
		return idxCannotRead(IndexChatTask, chat.readErr)
	}
	gpqa := s.task(taskGPQA, IndexProblemTask)
	if gpqa.readErr != nil {
		return idxCannotRead(IndexProblemTask, gpqa.readErr)
	}
	open := func() (io.ReadCloser, error) { return s.Open(IndexPath) }
	f, err := open()
	if err != nil {
		return idxCannotRead(IndexPath, err)
	}
	f.Close()
	src := &idxSource{chat: chat, gpqa: gpqa, readModel: s.Read, openIndex: open,
		reportedElsewhere: func(t *taskData) bool { return s.leaderboardReports(t.task, t.path) }}
	for _, p := range s.Files {
		if isModelPath(p) {
			src.models = append(src.models, p)
		}
	}
	return idxCheck(src)
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
	src := &idxSource{
		chat: parseTaskData(taskChat, IndexChatTask, chatTask),
		gpqa: parseTaskData(taskGPQA, IndexProblemTask, gpqaTask),
		readModel: func(p string) ([]byte, error) {
			if b, ok := modelFiles[p]; ok {
				return b, nil
			}
			return nil, os.ErrNotExist
		},
		openIndex: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(indexJSON)), nil },
	}
	for p := range modelFiles {
		src.models = append(src.models, p)
	}
	sort.Strings(src.models)
	return problemsError("index", idxCheck(src))
}

// idxFail is a problem that stops the check.
type idxFail struct{ Problem }

func (f *idxFail) Error() string { return f.String() }

func idxFailf(file, where, field, format string, a ...any) error {
	return &idxFail{Problem{File: file, Where: where, Field: field, Msg: fmt.Sprintf(format, a...)}}
}

func idxCheck(src *idxSource) []Problem {
	// A task file with problems (reported here unless the leaderboard
	// check reports them) is no ground to recompute the index from.
	var out []Problem
	for _, t := range []*taskData{src.chat, src.gpqa} {
		if !t.clean() {
			if src.reportedElsewhere == nil || !src.reportedElsewhere(t) {
				out = append(out, t.probs...)
			}
			out = append(out, Problem{File: IndexPath, Msg: fmt.Sprintf("cannot be recomputed: %s has the problems reported above", t.path)})
		}
	}
	if out != nil {
		return out
	}
	if len(src.models) == 0 {
		return []Problem{{File: IndexPath, Msg: "has no model files to be checked against"}}
	}
	pl, err := idxPrepare(src)
	if err != nil {
		var f *idxFail
		if errors.As(err, &f) {
			return []Problem{f.Problem}
		}
		return []Problem{{File: IndexPath, Msg: err.Error()}}
	}

	// The bytes first: when they are the recomputed file's, every figure
	// agrees too (and the key order, indentation and number spelling).
	r, err := src.openIndex()
	if err != nil {
		return idxCannotRead(IndexPath, err)
	}
	cmp := &idxBytes{r: bufio.NewReaderSize(r, 64<<10), buf: make([]byte, 32<<10)}
	err = pl.write(cmp)
	r.Close()
	if err != nil {
		return []Problem{{File: IndexPath, Msg: fmt.Sprintf("cannot be recomputed: %v", err)}}
	}
	if cmp.err != nil {
		return idxCannotRead(IndexPath, cmp.err)
	}
	if !cmp.diff {
		return nil
	}

	// They differ: name every differing figure.
	if r, err = src.openIndex(); err != nil {
		return idxCannotRead(IndexPath, err)
	}
	defer r.Close()
	probs := pl.compare(r)
	if len(probs) == 0 {
		// Figures agree: the bytes must too (key order, indentation, number
		// spelling, no trailing newline).
		probs = append(probs, Problem{File: IndexPath, Msg: fmt.Sprintf("line %d: the layout differs from the recomputed file (key order, indentation or trailing newline)", 1+cmp.lines)})
	}
	return probs
}

// idxBytes compares the recomputed file, as it is printed, with the
// published bytes as they are read.
type idxBytes struct {
	r     *bufio.Reader
	buf   []byte
	lines int  // newlines in the recomputed bytes before the first difference
	diff  bool // a difference was found
	err   error
}

// compare compares the next recomputed bytes p with the next published ones.
func (c *idxBytes) compare(p []byte) {
	for len(p) > 0 && !c.diff {
		n := min(len(p), len(c.buf))
		m, err := io.ReadFull(c.r, c.buf[:n])
		i := 0
		for i < m && c.buf[i] == p[i] {
			i++
		}
		c.lines += bytes.Count(p[:i], []byte("\n"))
		if i < n {
			c.diff = true
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				c.err = err
			}
			return
		}
		p = p[n:]
	}
}

// end reports a published file longer than the recomputed one.
func (c *idxBytes) end() {
	if c.diff {
		return
	}
	if _, err := c.r.ReadByte(); err != io.EOF {
		c.diff = true
		if err != nil {
			c.err = err
		}
	}
}

// ---- the stable rows ----

// idxRow is a stable row of a task file as the index reads it: the row as
// this package parses it, with the slug and repeat number it gets once
// grouped (the parsed rows are shared with the other checks and not
// changed).
type idxRow struct {
	*lbRow
	slug   string
	repeat int
}

// file is the snapshot path of the row's task file.
func (r *idxRow) file() string { return sourcePath(lbTaskName(r.task)) }

func (r *idxRow) outputTokens() (float64, error) {
	if r.outputLen != nil {
		return *r.outputLen, nil
	}
	if r.energyRequest == nil || *r.energy <= 0 {
		return 0, idxFailf(r.file(), r.where(), "avg_output_len", "is missing, and it cannot be derived")
	}
	return *r.energyRequest / *r.energy, nil
}

func (r *idxRow) whPerMillion() float64 { return *r.energy * 1e6 / 3600 }

func (r *idxRow) rowID() string {
	id := r.slug + "/"
	if r.task != taskChat {
		id += r.task + "/"
	}
	id += r.gpu + "/" + strconv.Itoa(r.numGPUs) + "/" + strconv.Itoa(r.maxNumSeqs)
	if r.repeat > 1 {
		id += "/r" + strconv.Itoa(r.repeat)
	}
	return id
}

// idxModel is one model's stable rows of one task, in the model files'
// order (GPU, GPU count, cap, upstream order), with its best row per GPU.
type idxModel struct {
	id, slug string
	rows     []*idxRow
	best     []*idxRow // the best row of each GPU that has one, by GPU
}

// bestOn returns the model's best row on gpu, or nil.
func (m *idxModel) bestOn(gpu string) *idxRow {
	if m == nil {
		return nil
	}
	for _, r := range m.best {
		if r.gpu == gpu {
			return r
		}
	}
	return nil
}

// idxGroup groups stable rows by model, names them (slug: the Text
// Conversation slug where given, else from the nickname), numbers repeats and
// picks the best row of each GPU.
func idxGroup(rows []*lbRow, slugs map[string]string) map[string]*idxModel {
	out := map[string]*idxModel{}
	for _, lr := range rows {
		m := out[lr.modelID]
		if m == nil {
			slug, ok := slugs[lr.modelID]
			if !ok {
				slug = slugOf(lr.nickname)
			}
			m = &idxModel{id: lr.modelID, slug: slug}
			out[lr.modelID] = m
		}
		m.rows = append(m.rows, &idxRow{lbRow: lr, slug: m.slug})
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
			if r.medianITL > itlDeadlineMS {
				continue
			}
			j := sort.Search(len(m.best), func(j int) bool { return m.best[j].gpu >= r.gpu })
			if j == len(m.best) || m.best[j].gpu != r.gpu {
				m.best = slices.Insert(m.best, j, r)
				continue
			}
			b := m.best[j]
			if *r.energy < *b.energy ||
				*r.energy == *b.energy && (r.numGPUs < b.numGPUs ||
					r.numGPUs == b.numGPUs && (r.maxNumSeqs < b.maxNumSeqs ||
						r.maxNumSeqs == b.maxNumSeqs && r.repeat < b.repeat)) {
				m.best[j] = r
			}
		}
	}
	return out
}

// ---- numbers, printed as the published files print them ----

// idxNum is a number as printed in the file.
type idxNum string

func idxFloat(x float64) idxNum        { return idxNum(floatText(x)) }
func idxRound(x float64, d int) idxNum { return idxNum(roundedText(x, d)) }
func idxSig3(x float64) idxNum         { return idxNum(sig3Text(x)) }
func idxWhole(x float64) idxNum        { return idxNum(roundedInt(x)) }
func idxInt(n int) idxNum              { return idxNum(strconv.Itoa(n)) }

// ---- the expected file ----

// idxObj is a JSON object with its keys in order: vals[i] is keys[i]'s
// value. (Two slices, not a map: an object has a few dozen keys at most,
// and the check makes millions of them at 10,000 models.)
type idxObj struct {
	keys []string
	vals []any
}

func idxO(kv ...any) *idxObj {
	o := &idxObj{keys: make([]string, 0, len(kv)/2), vals: make([]any, 0, len(kv)/2)}
	for i := 0; i < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

func (o *idxObj) set(k string, v any) {
	if i := slices.Index(o.keys, k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
}

// get returns k's value; ok is false when o has no key k.
func (o *idxObj) get(k string) (v any, ok bool) {
	if i := slices.Index(o.keys, k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// val returns k's value, nil when o has no key k.
func (o *idxObj) val(k string) any {
	v, _ := o.get(k)
	return v
}

// idxList stands, in the expected header, for one of the file's four lists,
// which are recomputed, printed and compared one entry at a time.
type idxList string

// The lists of index.json, in the file's order.
var idxLists = []idxList{"models", "gpu_comparisons", "task_comparisons", "load_curves"}

// idxConfig is a configuration as the model files print it.
func idxConfig(r *idxRow) (*idxObj, error) {
	p, ok := precisions[r.precision]
	if !ok {
		return nil, idxFailf(r.file(), r.where(), "weight_precision", "is %q, an unknown precision", r.precision)
	}
	n, err := r.outputTokens()
	if err != nil {
		return nil, err
	}
	return idxO(
		"gpu", r.gpu, "num_gpus", idxInt(r.numGPUs), "tensor_parallel", idxInt(r.tp),
		"data_parallel", idxInt(r.dp), "expert_parallel", idxInt(r.ep), "precision", p,
		"max_num_seqs", idxInt(r.maxNumSeqs), "avg_requests_in_flight", idxRound(r.avgBatch, 1),
		"wh_per_million_output_tokens", idxRound(r.whPerMillion(), 2),
		"joules_per_output_token", idxRound(*r.energy, 7),
		"median_itl_ms", idxRound(r.medianITL, 1), "p90_itl_ms", idxRound(r.p90, 1), "p99_itl_ms", idxRound(r.p99, 1),
		"tokens_per_second", idxRound(r.throughput, 1), "gpu_power_watts_total", idxWhole(r.power),
		"avg_output_tokens", idxWhole(n), "under_itl_deadline", r.medianITL <= itlDeadlineMS,
		"avg_running_batch", idxRound(r.avgBatch, 1), "p95_itl_ms", idxRound(r.p95, 1),
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
		"avg_running_batch", idxRound(r.avgBatch, 1), "wh_per_million_output_tokens", idxRound(r.whPerMillion(), 2),
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

// idxModelFile is what the check reads from a model file: its top-level
// members, raw, decoded when needed.
type idxModelFile struct {
	path string
	raw  map[string]json.RawMessage
}

// get decodes a top-level member as json.Decoder with UseNumber does; a
// missing member is nil.
func (f *idxModelFile) get(k string) any {
	raw, ok := f.raw[k]
	if !ok {
		return nil
	}
	return decodeNumbers(raw) // valid: the file decoded
}

// same reports whether member k of f and of g are equal.
func (f *idxModelFile) same(g *idxModelFile, k string) bool {
	a, aok := f.raw[k]
	b, bok := g.raw[k]
	if aok && bok && bytes.Equal(a, b) {
		return true
	}
	return idxEqual(f.get(k), g.get(k))
}

// idxReadModel reads and decodes one model file; its slug must be its name's.
func idxReadModel(src *idxSource, path string) (*idxModelFile, error) {
	data, err := src.readModel(path)
	if err != nil {
		return nil, idxFailf(path, "", "", "cannot be read (%s is computed from it): %v", IndexPath, err)
	}
	// As json.Decoder reads it: only the first value.
	var raw map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&raw); err != nil {
		return nil, idxFailf(path, "", "", "is not valid JSON: %v", err)
	}
	f := &idxModelFile{path: path, raw: raw}
	slug, _ := f.get("slug").(string)
	if path != "models/"+slug+".json" {
		return nil, idxFailf(path, "", "slug", "is %q, which does not match the file name", slug)
	}
	return f, nil
}

// idxPlan is the recomputed index.json, ready to be printed or compared one
// entry at a time: the grouped rows, and the header with its lists as
// idxList.
type idxPlan struct {
	chat, gpqa map[string]*idxModel
	ids        []string // the Text Conversation models, by slug
	header     *idxObj
}

// idxPrepare groups the rows, checks every model file against them (one
// file at a time) and recomputes every entry once, so that whatever stops
// the recomputation is found before anything is compared.
func idxPrepare(src *idxSource) (*idxPlan, error) {
	pl := &idxPlan{chat: idxGroup(src.chat.stable, nil)}
	chat := pl.chat
	slugs := map[string]string{}
	for id, m := range chat {
		slugs[id] = m.slug
		pl.ids = append(pl.ids, id)
	}
	sort.Slice(pl.ids, func(i, j int) bool {
		a, b := chat[pl.ids[i]], chat[pl.ids[j]]
		if a.slug != b.slug {
			return a.slug < b.slug
		}
		return a.id < b.id
	})
	pl.gpqa = idxGroup(src.gpqa.stable, slugs)

	have := map[string]bool{}
	for _, p := range src.models {
		have[p] = true
	}
	want := map[string]bool{}
	for _, id := range pl.ids {
		p := "models/" + chat[id].slug + ".json"
		if !have[p] {
			return nil, idxFailf(p, "", "", "is missing: %s has stable rows of %s (%s)", IndexChatTask, id, chat[id].slug)
		}
		want[p] = true
	}
	// A model file of no Text Conversation model.
	for _, p := range src.models {
		if want[p] {
			continue
		}
		f, err := idxReadModel(src, p)
		if err != nil {
			return nil, err
		}
		id, _ := f.get("model_id").(string)
		return nil, idxFailf(f.path, "", "model_id", "is %q, a model without stable rows in %s", id, IndexChatTask)
	}

	// Every model file: the header repeats the model files' dates and
	// source fields, which must all agree with the first's; each entry must
	// agree with its file. The files are checked on a worker per CPU after
	// the first; the first problem in the models' order stops the check.
	var first *idxModelFile
	if len(pl.ids) > 0 {
		f, err := pl.checkModel(src, chat[pl.ids[0]], nil)
		if err != nil {
			return nil, err
		}
		first = f
	}
	errs := make([]error, len(pl.ids))
	eachIndex(len(pl.ids)-1, func(i int) { _, errs[i+1] = pl.checkModel(src, chat[pl.ids[i+1]], first) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}

	src0, _ := first.get("source").(map[string]any)
	pl.header = idxO(
		"version", "1", "updated", first.get("updated"), "data_version", first.get("data_version"),
		"unit", "Wh per million output tokens", "itl_deadline_ms", idxInt(itlDeadlineMS),
		"source", idxO(
			"name", src0["name"], "version", src0["version"], "released", src0["released"],
			"compiled", src0["compiled"], "retrieved", src0["retrieved"], "licence", src0["licence"], "cite", src0["cite"],
			"details", "each model file's source block (models/SLUG.json, key source) holds the full text: publisher, method, selection, licence evidence",
			"tasks", []any{
				idxO("task", taskChat, "name", "Text Conversation", "file", IndexChatTask, "stable_configurations", idxInt(len(src.chat.stable))),
				idxO("task", taskGPQA, "name", "Problem Solving", "file", IndexProblemTask, "stable_configurations", idxInt(len(src.gpqa.stable))),
			},
		),
	)
	for _, list := range idxLists {
		pl.header.set(string(list), list)
	}
	return pl, nil
}

// checkModel reads model m's file and checks it against the task files
// and, unless it is the first (nil), against the first model file.
func (pl *idxPlan) checkModel(src *idxSource, m *idxModel, first *idxModelFile) (*idxModelFile, error) {
	f, err := idxReadModel(src, "models/"+m.slug+".json")
	if err != nil {
		return nil, err
	}
	if first != nil {
		for _, k := range []string{"updated", "data_version", "unit", "source"} {
			if !f.same(first, k) {
				return nil, idxFailf(f.path, "", k, "differs from %s's; every model file of a snapshot has the same", first.path)
			}
		}
	}
	if fid, _ := f.get("model_id").(string); fid != m.id {
		if fm := pl.chat[fid]; fm == nil || fm.slug != m.slug {
			return nil, idxFailf(f.path, "", "model_id", "is %q, a model without stable rows in %s", fid, IndexChatTask)
		}
	}
	entry, err := pl.modelEntry(m)
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"name", "model_id", "params_b", "active_params_b", "architecture", "gpus", "best"} {
		got := f.get(k)
		if w := idxPlain(entry.val(k)); !idxEqual(w, got) {
			// Name the first value that differs, not "an object".
			field, g, wv := idxFirstDiff(k, got, w)
			return nil, idxFailf(f.path, "", field, "is %s, but %s gives %s", idxShow(g), IndexChatTask, idxShow(wv))
		}
	}
	var configs []json.RawMessage
	_ = json.Unmarshal(f.raw["configurations"], &configs) // not a list: none
	if n := len(configs); n != len(m.rows) {
		return nil, idxFailf(f.path, "", "configurations", "has %d rows, but %s has %d stable rows of the model", n, IndexChatTask, len(m.rows))
	}
	return f, pl.checkRows(m)
}

// checkRows finds what would stop the recomputation of a model's entries
// in the lists after models (whose entry, with the index rows, is
// recomputed in idxPrepare): the rows of its load curves and its Problem
// Solving index rows must give an output length, and a curve's first row a
// power and a throughput. Once it passes, entries does not fail.
func (pl *idxPlan) checkRows(m *idxModel) error {
	pm := pl.gpqa[m.id]
	for _, b := range m.best {
		gpu := b.gpu
		from, _, past := idxCurveRows(m, b)
		if err := idxCurveOK(from); err != nil {
			return err
		}
		for _, r := range []*idxRow{from, past} {
			if r == nil {
				continue
			}
			if _, err := r.outputTokens(); err != nil {
				return err
			}
		}
		if p := pm.bestOn(gpu); p != nil {
			if _, err := p.outputTokens(); err != nil {
				return err
			}
		}
	}
	return nil
}

// entries recomputes a model's entries of one list, in the file's order.
func (pl *idxPlan) entries(list idxList, m *idxModel) ([]*idxObj, error) {
	switch list {
	case "models":
		e, err := pl.modelEntry(m)
		if err != nil {
			return nil, err
		}
		return []*idxObj{e}, nil
	case "gpu_comparisons":
		h, b := m.bestOn("H100"), m.bestOn("B200")
		if h == nil || b == nil {
			return nil, nil
		}
		rh, err := idxRef(h)
		if err != nil {
			return nil, err
		}
		rb, err := idxRef(b)
		if err != nil {
			return nil, err
		}
		return []*idxObj{idxO("slug", m.slug, "h100", rh, "b200", rb, "energy_per_token_ratio", idxSig3(*h.energy / *b.energy))}, nil
	case "task_comparisons":
		var out []*idxObj
		pm := pl.gpqa[m.id]
		for _, c := range m.best {
			gpu := c.gpu
			p := pm.bestOn(gpu)
			if p == nil {
				continue
			}
			tc, ce, err := idxTaskRef(c)
			if err != nil {
				return nil, err
			}
			tp, pe, err := idxTaskRef(p)
			if err != nil {
				return nil, err
			}
			out = append(out, idxO(
				"slug", m.slug, "gpu", gpu, "text_conversation", tc, "problem_solving", tp,
				"energy_per_response_ratio", idxSig3(pe/ce), "energy_per_token_ratio", idxSig3(*p.energy / *c.energy),
			))
		}
		return out, nil
	case "load_curves":
		var out []*idxObj
		for _, b := range m.best {
			curve, err := idxCurve(m, b)
			if err != nil {
				return nil, err
			}
			out = append(out, curve)
		}
		return out, nil
	}
	panic("validate: index: no list " + string(list))
}

// modelEntry recomputes a model's entry of the models list.
func (pl *idxPlan) modelEntry(m *idxModel) (*idxObj, error) {
	r0 := m.rows[0]
	var gpus []any
	for _, r := range m.rows {
		if len(gpus) == 0 || gpus[len(gpus)-1] != r.gpu {
			gpus = append(gpus, r.gpu)
		}
		if r.nickname != r0.nickname || r.totalParams != r0.totalParams || r.activeParams != r0.activeParams || r.arch != r0.arch {
			return nil, idxFailf(r.file(), r.where(), "", "name, parameters or architecture differ from %s", r0.where())
		}
	}
	best := &idxObj{}
	for _, b := range m.best {
		c, err := idxConfig(b)
		if err != nil {
			return nil, err
		}
		best.set(b.gpu, c)
	}
	return idxO(
		"slug", m.slug, "name", r0.nickname, "model_id", m.id,
		"params_b", idxFloat(r0.totalParams), "active_params_b", idxFloat(r0.activeParams),
		"architecture", r0.arch, "configurations", idxInt(len(m.rows)), "gpus", gpus,
		"file", "models/"+m.slug+".json", "best", best,
	), nil
}

// idxCurve is the load curve of index row best, over the model's rows on
// its GPU at its GPU count.
func idxCurve(m *idxModel, best *idxRow) (*idxObj, error) {
	from, top, past := idxCurveRows(m, best)
	if err := idxCurveOK(from); err != nil {
		return nil, err
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

// idxCurveOK reports a curve whose first row has no power or throughput to
// divide by.
func idxCurveOK(from *idxRow) error {
	if from.power <= 0 || from.throughput <= 0 {
		return idxFailf(from.file(), from.where(), "", "zero power or throughput: the load curve has no ratio")
	}
	return nil
}

// idxCurveRows returns the rows of index row best's load curve: the first
// (smallest cap) of the model's rows on its GPU at its GPU count, the one
// with the highest median ITL up to best's cap, and the first past it (nil
// when best has the highest cap).
func idxCurveRows(m *idxModel, best *idxRow) (from, top, past *idxRow) {
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
	return from, top, past
}

// ---- comparing ----

// idxPlain turns an expected value into the shape json.Decoder with
// UseNumber gives, for comparison with a decoded file.
func idxPlain(v any) any {
	switch v := v.(type) {
	case *idxObj:
		m := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			m[k] = idxPlain(v.vals[i])
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

// idxFirstDiff returns the path below field of the first value that
// differs between got and want (keys in sorted order, a key only one side
// has as absent: nil), and the two values there.
func idxFirstDiff(field string, got, want any) (string, any, any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return field, got, want
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !idxEqual(w[k], g[k]) {
				return idxFirstDiff(field+"."+k, g[k], w[k])
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return field, got, want
		}
		for i := range w {
			if !idxEqual(w[i], g[i]) {
				return idxFirstDiff(fmt.Sprintf("%s[%d]", field, i), g[i], w[i])
			}
		}
	}
	return field, got, want
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
	if o, ok := v.(*idxObj); ok {
		v = idxPlain(o)
	}
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
			c.value(w.val(k), v, append(path[:len(path):len(path)], k))
		}
		for k := range g {
			if _, ok := w.get(k); !ok {
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

// compare decodes the published file one header member and one list entry
// at a time and names every figure that differs from the recomputed one. A
// file that is not JSON gets that one problem.
func (pl *idxPlan) compare(r io.Reader) []Problem {
	invalid := func(err error) []Problem {
		return []Problem{{File: IndexPath, Msg: fmt.Sprintf("is not valid JSON: %v", err)}}
	}
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	dec.UseNumber()
	c := &idxCompare{}
	tok, err := dec.Token()
	if err != nil {
		return invalid(err)
	}
	if tok != json.Delim('{') {
		v, err := decodeAfter(dec, tok)
		if err != nil {
			return invalid(err)
		}
		c.fail(nil, "is %s, want an object", idxShow(v))
	} else {
		seen := map[string]bool{}
		var extra []string
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return invalid(err)
			}
			k, _ := kt.(string)
			want, known := pl.header.get(k)
			if list, ok := want.(idxList); ok {
				seen[k] = true
				if err := pl.compareList(dec, c, list); err != nil {
					return invalid(err)
				}
				continue
			}
			var v any
			if err := dec.Decode(&v); err != nil {
				return invalid(err)
			}
			if !known {
				extra = append(extra, k)
				continue
			}
			seen[k] = true
			c.value(want, v, []string{k})
		}
		if _, err := dec.Token(); err != nil { // '}'
			return invalid(err)
		}
		for _, k := range pl.header.keys {
			if !seen[k] {
				c.fail([]string{k}, "is missing")
			}
		}
		for _, k := range extra {
			c.fail([]string{k}, "is not a key of %s", IndexPath)
		}
	}
	if dec.More() {
		return []Problem{{File: IndexPath, Msg: "has data after the top-level value"}}
	}
	return c.probs
}

// compareList compares one of the file's lists, decoding one entry at a
// time. Entries are matched by their key (model, GPU), so a missing entry
// is named rather than shifting every later one.
func (pl *idxPlan) compareList(dec *json.Decoder, c *idxCompare, list idxList) error {
	name := string(list)
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		v, err := decodeAfter(dec, tok)
		if err != nil {
			return err
		}
		c.fail([]string{name}, "is %s, want an array", idxShow(v))
		return nil
	}
	type at struct {
		m *idxModel
		j int
	}
	where := map[string]at{}
	var order []string
	n := 0
	for _, id := range pl.ids {
		m := pl.chat[id]
		es, err := pl.entries(list, m)
		if err != nil {
			return err // found by idxPrepare: cannot happen
		}
		for j, e := range es {
			k := idxEntryKey(e, n)
			n++
			if _, dup := where[k]; !dup {
				where[k] = at{m, j}
				order = append(order, k)
			}
		}
	}
	seen := map[string]bool{}
	var extra []string
	for i := 0; dec.More(); i++ {
		var x any
		if err := dec.Decode(&x); err != nil {
			return err
		}
		k := idxEntryKey(x, i)
		a, ok := where[k]
		if !ok {
			extra = append(extra, k)
			continue
		}
		seen[k] = true
		es, err := pl.entries(list, a.m)
		if err != nil {
			return err
		}
		c.value(es[a.j], x, []string{name, "[" + k + "]"})
	}
	if _, err := dec.Token(); err != nil { // ']'
		return err
	}
	for _, k := range order {
		if !seen[k] {
			c.fail([]string{name, "[" + k + "]"}, "is missing: the task files give this entry")
		}
	}
	for _, k := range extra {
		c.fail([]string{name, "[" + k + "]"}, "is an entry the task files do not give")
	}
	return nil
}

// ---- the expected bytes ----

// errIdxDiffers stops printing the recomputed file once it differs from
// the published one.
var errIdxDiffers = errors.New("the bytes differ")

// write prints the recomputed file as the published files are printed
// (keys in order, two-space indentation, "key": value, no HTML escaping,
// no trailing newline) and compares it with the published bytes as it
// goes, one list entry at a time.
func (pl *idxPlan) write(cmp *idxBytes) error {
	var b bytes.Buffer
	flush := func() error {
		cmp.compare(b.Bytes())
		b.Reset()
		if cmp.diff {
			return errIdxDiffers
		}
		return nil
	}
	err := pl.writeHeader(&b, flush)
	if err == nil {
		err = flush()
	}
	if errors.Is(err, errIdxDiffers) {
		return nil
	}
	if err != nil {
		return err
	}
	cmp.end()
	return nil
}

func (pl *idxPlan) writeHeader(b *bytes.Buffer, flush func() error) error {
	h := pl.header
	b.WriteByte('{')
	for i, k := range h.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		quoteFast(b, k)
		b.WriteString(": ")
		list, ok := h.vals[i].(idxList)
		if !ok {
			idxWrite(b, h.vals[i], 1)
			continue
		}
		b.WriteByte('[')
		empty := true
		for _, id := range pl.ids {
			es, err := pl.entries(list, pl.chat[id])
			if err != nil {
				return err
			}
			for _, e := range es {
				if !empty {
					b.WriteByte(',')
				}
				empty = false
				b.WriteString("\n    ")
				idxWrite(b, e, 2)
			}
			if b.Len() >= 32<<10 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if !empty {
			b.WriteString("\n  ")
		}
		b.WriteByte(']')
	}
	if len(h.keys) > 0 {
		b.WriteByte('\n')
	}
	b.WriteByte('}')
	return nil
}

// idxWrite prints a value at the given depth of indentation, as
// json.Indent with two spaces prints it.
func idxWrite(b *bytes.Buffer, v any, depth int) {
	indent := func(d int) {
		b.WriteByte('\n')
		for range d {
			b.WriteString("  ")
		}
	}
	switch v := v.(type) {
	case *idxObj:
		if len(v.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			quoteFast(b, k)
			b.WriteString(": ")
			idxWrite(b, v.vals[i], depth+1)
		}
		indent(depth)
		b.WriteByte('}')
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			idxWrite(b, x, depth+1)
		}
		indent(depth)
		b.WriteByte(']')
	case map[string]any: // copied from a model file: keys sorted, as Go prints maps
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := &idxObj{keys: keys, vals: make([]any, len(keys))}
		for i, k := range keys {
			o.vals[i] = v[k]
		}
		idxWrite(b, o, depth)
	case idxNum:
		b.WriteString(string(v))
	case json.Number:
		b.WriteString(string(v))
	case string:
		quoteFast(b, v)
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("validate: index: cannot print %T", v))
	}
}
