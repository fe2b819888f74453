package validate

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/internal/sourcetext"
)

// modelVersion is the model files' format version.
const modelVersion = "1"

// precisions maps upstream weight_precision to the published precision.
var precisions = map[string]string{"bfloat16": "BF16", "fp8": "FP8", "mxfp4": "MXFP4"}

// maxSlugLen bounds a slug, so that models/SLUG.json is a valid file name.
const maxSlugLen = 200

var (
	nonSlug = regexp.MustCompile(`[^a-z0-9]+`)
	// gpuName is the published rule for gpu_model: a plain name of at most
	// 40 bytes (letters, digits, space, ".", "_", "-"; a letter or digit
	// first, no space last). Any such GPU is published, reviewed or new.
	gpuName = regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9 ._-]{0,38}[A-Za-z0-9._-])?$`)
	// modelIDForm is the published form of a model id (the schemas' model_id).
	modelIDForm = regexp.MustCompile(`^[^\s/]+/[^\s/]+$`)
)

// slugOf is the published rule: the nickname lower-cased, every run of
// characters outside [a-z0-9] one "-", trimmed of "-".
func slugOf(nickname string) string {
	return strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(nickname), "-"), "-")
}

// lbInputs is what the model files are recomputed from.
type lbInputs struct {
	date, retrieved string
	dataURL         string // the manifest URL of the lm-arena-chat task file
	chatPath        string // its snapshot path, for messages
	index           *lbIndex
	commit          *lbCommit
	text            *sourcetext.Text
	task            *task
	stable          []*lbRow // the task's stable rows, upstream order
}

// wantModel is a recomputed model file.
type wantModel struct {
	slug, modelID string
	tree          *jnode
	configs       []*run
	best          []*run // the best configuration of each GPU that has one, by GPU
}

// fill replaces each {key} in template with vars[key]. A placeholder with
// no value is an error, so a template and this recomputation cannot drift
// apart.
func fill(template string, vars map[string]string) (string, error) {
	var pairs, blanks []string
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
		blanks = append(blanks, "{"+k+"}", "")
	}
	if left := strings.NewReplacer(blanks...).Replace(template); strings.ContainsAny(left, "{}") {
		return "", fmt.Errorf("fill %q: a placeholder without a value", template)
	}
	return strings.NewReplacer(pairs...).Replace(template), nil
}

// sourceBlock recomputes the model files' source block.
func sourceBlock(in *lbInputs) (*jnode, error) {
	t, compiled := &in.text.Leaderboard, in.index.lastUpdated
	var err error
	filled := func(template string, vars map[string]string) string {
		s, e := fill(template, vars)
		err = cmp.Or(err, e)
		return s
	}
	version := filled(t.VersionTemplate, map[string]string{"leaderboard_version": t.LeaderboardVersion, "released": t.Released, "compiled": compiled})
	tmpl := t.CompiledEvidenceAgree
	if in.commit.date != compiled {
		tmpl = t.CompiledEvidenceDiffer
	}
	evidence := filled(tmpl, map[string]string{"compiled": compiled, "index_date": compiled, "commit_date": in.commit.date})
	count := filled(t.ConfigurationsTemplate, map[string]string{"count": strconv.Itoa(len(in.stable))})
	if err != nil {
		return nil, err
	}
	licence := jarr()
	for _, s := range t.LicenceEvidence {
		licence.vals = append(licence.vals, jstr(s))
	}
	return jobj().
		set("name", jstr(t.Name)).set("publisher", jstr(t.Publisher)).set("url", jstr(t.URL)).
		set("data_url", jstr(in.dataURL)).set("version", jstr(version)).set("released", jstr(t.Released)).
		set("compiled", jstr(compiled)).set("compiled_evidence", jstr(evidence)).
		set("retrieved", jstr(in.retrieved)).
		set("licence", jstr(t.Licence)).set("licence_evidence", licence).set("workload", jstr(t.Workload)).
		set("method", jstr(t.Method)).set("selection", jstr(t.Selection)).set("cite", jstr(t.Cite)).
		set("cite_url", jstr(t.CiteURL)).set("used_for", jstr(t.UsedFor)).
		set("configurations", jstr(count)), nil
}

// indexSource is the source block of index.json and of every task's
// files: the members of the model files' full one they repeat.
func indexSource(full *jnode) *jnode {
	return pick(full, "name", "version", "released", "compiled", "retrieved", "licence", "cite")
}

// eachModel rebuilds the model files of in.task from its stable rows one
// at a time, in slug order, and hands each to emit. A model the upstream
// data stops from being built is reported (on the task file or the index)
// and its slug returned in broken, so that its file is not also reported
// as unexpected.
func eachModel(in *lbInputs, chat, index *problems, emit func(*wantModel)) (broken map[string]bool, err error) {
	src, err := sourceBlock(in)
	if err != nil {
		return nil, err
	}
	ids, byModel, ok, broken := groupModels(in.task.id, in.stable, in.index, chat, index)
	for _, slug := range slices.Sorted(maps.Keys(ids)) {
		m, good := recomputeModel(in, src, chat, slug, byModel[ids[slug]])
		if !ok[slug] || !good {
			broken[slug] = true
			continue
		}
		emit(m)
	}
	return broken, nil
}

// rowIdent is what a row of any task says of its model.
type rowIdent struct {
	modelID, nickname, arch   string
	totalParams, activeParams float64
}

func (r *lbRow) ident() rowIdent {
	return rowIdent{r.modelID, r.nickname, r.arch, r.totalParams, r.activeParams}
}

// groupModels groups one task's published rows by model, by slug (ids:
// the model id of each slug; ok: whether the model can be built), and
// reports what stops a model from being built: a model id not OWNER/NAME,
// a bad or shared slug (on the task file, file), a model index.json does
// not list or names otherwise (on index), rows of one model that disagree
// on its names and sizes. A shared slug is returned in broken.
func groupModels[R interface {
	ident() rowIdent
	where() string
}](task string, rows []R, idx *lbIndex, file, index *problems) (ids map[string]string, byModel map[string][]R, ok, broken map[string]bool) {
	byModel, broken = map[string][]R{}, map[string]bool{}
	for _, r := range rows {
		byModel[r.ident().modelID] = append(byModel[r.ident().modelID], r)
	}
	ids, ok = map[string]string{}, map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(byModel)) {
		rows := byModel[id]
		first := rows[0].ident()
		slug, where := slugOf(first.nickname), rows[0].where()
		if !modelIDForm.MatchString(id) {
			file.add(where, "model_id", "is %q, not OWNER/NAME (one \"/\", no white space)", id)
			continue
		}
		if slug == "" {
			file.add(where, "nickname", "%q gives an empty slug", first.nickname)
			continue
		}
		if len(slug) > maxSlugLen {
			file.add(where, "nickname", "%q gives a slug of %d bytes, over %d", first.nickname, len(slug), maxSlugLen)
			continue
		}
		if other, dup := ids[slug]; dup {
			file.add(where, "nickname", "%q gives the slug %q, which %s has too", first.nickname, slug, other)
			broken[slug] = true
			continue
		}
		ids[slug], ok[slug] = id, true
		switch nick, listed := idx.nicknames[id]; {
		case !listed:
			if task == taskChat { // checkIndexed reports every other task's
				index.add("", "models", "has no model %q (%s %s)", id, task, where)
			}
			ok[slug] = false
		case nick != first.nickname:
			index.add("", "models."+id+".nickname", "is %q, but %s %s names the model %q", nick, task, where, first.nickname)
			ok[slug] = false
		}
		for _, r := range rows[1:] {
			if r.ident() != first {
				file.add(r.where(), "", "nickname, total_params_billions, activated_params_billions or architecture differ from %s of the same model", where)
				ok[slug] = false
			}
		}
	}
	return ids, byModel, ok, broken
}

// recomputeModel recomputes the model file of one model's stable rows,
// with the source block src; a configuration without a published
// precision is reported and stops it.
func recomputeModel(in *lbInputs, src *jnode, chat *problems, slug string, rows []*lbRow) (*wantModel, bool) {
	first := rows[0]
	m := &wantModel{slug: slug, modelID: first.modelID}
	runs, best := sortRuns(slug, in.task.itlCeilingMS, rows)
	configs, bestNode := jarr(), jobj()
	ok := true
	for _, r := range runs {
		var known bool
		if r.node, known = configNode(r); !known {
			chat.add(r.where(), "weight_precision", "is %q, which has no published precision (the mapping is reviewed in transform/model.go, Precisions)", r.precision)
			ok = false
		}
		configs.vals = append(configs.vals, r.node)
	}
	if !ok {
		return nil, false
	}
	for _, r := range best {
		bestNode.set(r.gpu, r.node)
	}
	m.configs, m.best = runs, best
	m.tree = jobj().
		set("version", jstr(modelVersion)).set("updated", jstr(in.date)).set("data_version", jstr(in.date)).
		set("unit", jstr(in.text.Tasks[taskChat].Unit)).set("itl_deadline_ms", jint(chatTask().itlCeilingMS)).set("source", src).
		set("caveat", jstr(in.text.Leaderboard.Caveat)).set("boundary", jstr(in.text.Leaderboard.Boundary)).set("slug", jstr(slug)).
		set("name", jstr(first.nickname)).set("model_id", jstr(first.modelID)).set("params_b", jnum(floatText(first.totalParams))).
		set("active_params_b", jnum(floatText(first.activeParams))).set("architecture", jstr(first.arch)).
		set("gpus", gpuList(runs)).set("configurations", configs).set("best", bestNode)
	return m, true
}

// run is a stable row as the published files list it: with its model's
// slug, its repeat number among the model's runs on one GPU, GPU count
// and cap (upstream measured some twice), and its task's ITL ceiling.
type run struct {
	*lbRow
	node      *jnode // as the model files print it (recomputeModel)
	slug      string
	repeat    int
	ceilingMS int
}

// rowID is the run's row_id: SLUG/[TASK/]GPU/N/CAP[/rREPEAT], the task
// named for every task but Text Conversation.
func (r *run) rowID() string {
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

// outputTokens is the run's average output length: avg_output_len, or
// derived from the energy per request (parseRow requires one of them).
func (r *run) outputTokens() float64 {
	if r.outputLen != nil {
		return *r.outputLen
	}
	return *r.energyRequest / *r.energy
}

// sortRuns returns one model's stable rows of one task as its file lists
// them (by GPU, GPU count and cap, then upstream order), numbered, and the
// best run of each GPU, by GPU: the lowest unrounded energy per token
// among the runs with a median inter-token latency within the task's
// ceiling (ceilingMS), then fewer GPUs, the lower cap, the lower repeat.
func sortRuns(slug string, ceilingMS int, rows []*lbRow) (runs, best []*run) {
	sorted := slices.Clone(rows)
	slices.SortStableFunc(sorted, func(a, b *lbRow) int {
		return cmp.Or(strings.Compare(a.gpu, b.gpu), cmp.Compare(a.numGPUs, b.numGPUs), cmp.Compare(a.maxNumSeqs, b.maxNumSeqs))
	})
	for i, lr := range sorted {
		r := &run{lbRow: lr, slug: slug, repeat: 1, ceilingMS: ceilingMS}
		if i > 0 {
			if p := runs[i-1]; p.gpu == r.gpu && p.numGPUs == r.numGPUs && p.maxNumSeqs == r.maxNumSeqs {
				r.repeat = p.repeat + 1
			}
		}
		runs = append(runs, r)
		if !r.withinCeiling() {
			continue
		}
		switch n := len(best); {
		case n == 0 || best[n-1].gpu != r.gpu:
			best = append(best, r)
		case beats(r, best[n-1]):
			best[n-1] = r
		}
	}
	return runs, best
}

// beats reports whether a is a better best row than b (see sortRuns).
func beats(a, b *run) bool {
	return cmp.Or(cmp.Compare(*a.energy, *b.energy), cmp.Compare(a.numGPUs, b.numGPUs),
		cmp.Compare(a.maxNumSeqs, b.maxNumSeqs), cmp.Compare(a.repeat, b.repeat)) < 0
}

// configNode is a run as the model files print a configuration; known is
// false when its precision has no published name (printed "").
func configNode(r *run) (node *jnode, known bool) {
	precision, known := precisions[r.precision]
	return jobj().
		set("gpu", jstr(r.gpu)).set("num_gpus", jint(r.numGPUs)).set("tensor_parallel", jint(r.tp)).
		set("data_parallel", jint(r.dp)).set("expert_parallel", jint(r.ep)).set("precision", jstr(precision)).
		set("max_num_seqs", jint(r.maxNumSeqs)).set("avg_requests_in_flight", jnum(roundedText(r.avgBatch, 1))).
		set("wh_per_million_output_tokens", jnum(roundedText(r.whPerMillion(), 2))).
		set("joules_per_output_token", jnum(roundedText(*r.energy, 7))).
		set("median_itl_ms", jnum(roundedText(r.medianITL, 1))).set("p90_itl_ms", jnum(roundedText(r.p90, 1))).
		set("p99_itl_ms", jnum(roundedText(r.p99, 1))).set("tokens_per_second", jnum(roundedText(r.throughput, 1))).
		set("gpu_power_watts_total", jnum(roundedInt(r.power))).
		set("avg_output_tokens", jnum(roundedInt(r.outputTokens()))).
		set("under_itl_deadline", jbool(r.withinCeiling())).
		set("avg_running_batch", jnum(roundedText(r.avgBatch, 1))).set("p95_itl_ms", jnum(roundedText(r.p95, 1))).
		set("row_id", jstr(r.rowID())).set("repeat", jint(r.repeat)), known
}

// withinCeiling reports whether the run's median ITL is within its task's ceiling.
func (r *run) withinCeiling() bool { return r.medianITL <= float64(r.ceilingMS) }

// whPerMillion is the run's unrounded energy per million output tokens, in Wh.
func (r *run) whPerMillion() float64 { return *r.energy * 1e6 / 3600 }

// origin says which upstream values a configuration's published field
// comes from, for a mismatch's message.
func (r *run) origin(key string) string {
	values := map[string]string{
		"gpu": "gpu_model " + strconv.Quote(r.gpu), "precision": "weight_precision " + strconv.Quote(r.precision),
		"num_gpus": "num_gpus " + strconv.Itoa(r.numGPUs), "max_num_seqs": "max_num_seqs " + strconv.Itoa(r.maxNumSeqs),
		"tensor_parallel": "tensor_parallel " + strconv.Itoa(r.tp), "data_parallel": "data_parallel " + strconv.Itoa(r.dp),
		"expert_parallel":        "expert_parallel " + strconv.Itoa(r.ep),
		"avg_requests_in_flight": "avg_batch_size " + rawText(r.avgBatch), "avg_running_batch": "avg_batch_size " + rawText(r.avgBatch),
		"wh_per_million_output_tokens": "energy_per_token_joules " + rawText(*r.energy) + " x 1e6 / 3600 = " + rawText(r.whPerMillion()),
		"joules_per_output_token":      "energy_per_token_joules " + rawText(*r.energy),
		"median_itl_ms":                "median_itl_ms " + rawText(r.medianITL), "p90_itl_ms": "p90_itl_ms " + rawText(r.p90),
		"p95_itl_ms": "p95_itl_ms " + rawText(r.p95), "p99_itl_ms": "p99_itl_ms " + rawText(r.p99),
		"tokens_per_second":     "output_throughput_tokens_per_sec " + rawText(r.throughput),
		"gpu_power_watts_total": "avg_power_watts " + rawText(r.power),
		"row_id":                "sorted by gpu, num_gpus, max_num_seqs, then upstream order",
		"repeat":                "sorted by gpu, num_gpus, max_num_seqs, then upstream order",
	}
	switch key {
	case "avg_output_tokens":
		if r.outputLen != nil {
			return "avg_output_len " + rawText(*r.outputLen)
		}
		return fmt.Sprintf("energy_per_request_joules %s / energy_per_token_joules %s", rawText(*r.energyRequest), rawText(*r.energy))
	case "under_itl_deadline":
		op := "<="
		if !r.withinCeiling() {
			op = ">"
		}
		return fmt.Sprintf("median_itl_ms %s %s %d", rawText(r.medianITL), op, r.ceilingMS)
	}
	return values[key]
}

// gpuList lists the GPUs of a model's runs, which are sorted by GPU.
func gpuList(runs []*run) *jnode {
	n := jarr()
	for i, r := range runs {
		if i == 0 || r.gpu != runs[i-1].gpu {
			n.vals = append(n.vals, jstr(r.gpu))
		}
	}
	return n
}
