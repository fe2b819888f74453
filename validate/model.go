package validate

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/leadgreen/greentokens/transform/sourcetext"
)

// modelVersion is the model files' format version.
const modelVersion = "1"

// precisions maps upstream weight_precision to the published precision.
var precisions = map[string]string{"bfloat16": "BF16", "fp8": "FP8"}

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
	text            *sourcetext.Leaderboard
	stable          []*lbRow // the stable lm-arena-chat rows, upstream order
}

// wantModel is a recomputed model file.
type wantModel struct {
	slug, modelID string
	tree          *jnode
	configs       []*wantConfig
	best          map[string]int // GPU → index in configs
}

// wantConfig is one recomputed configuration.
type wantConfig struct {
	row    *lbRow
	rowID  string
	repeat int
	node   *jnode
}

// evidenceSentence returns the compiled-evidence text.
func evidenceSentence(text *sourcetext.Leaderboard, idx *lbIndex, c *lbCommit) (string, error) {
	tmpl := text.CompiledEvidenceAgree
	if c.date != idx.lastUpdated {
		tmpl = text.CompiledEvidenceDiffer
	}
	return sourcetext.Fill(tmpl, map[string]string{
		"compiled": idx.lastUpdated, "index_date": idx.lastUpdated, "commit_date": c.date,
	})
}

// sourceBlock recomputes the model files' source block.
func sourceBlock(in *lbInputs) (*jnode, error) {
	t := in.text
	version, err := sourcetext.Fill(t.VersionTemplate, map[string]string{
		"leaderboard_version": t.LeaderboardVersion, "released": t.Released, "compiled": in.index.lastUpdated,
	})
	if err != nil {
		return nil, err
	}
	evidence, err := evidenceSentence(t, in.index, in.commit)
	if err != nil {
		return nil, err
	}
	count, err := sourcetext.Fill(t.ConfigurationsTemplate, map[string]string{"count": strconv.Itoa(len(in.stable))})
	if err != nil {
		return nil, err
	}
	licence := jarr()
	for _, s := range t.LicenceEvidence {
		licence.vals = append(licence.vals, jstr(s))
	}
	return jobj().
		set("name", jstr(t.Name)).
		set("publisher", jstr(t.Publisher)).
		set("url", jstr(t.URL)).
		set("data_url", jstr(in.dataURL)).
		set("version", jstr(version)).
		set("released", jstr(t.Released)).
		set("compiled", jstr(in.index.lastUpdated)).
		set("compiled_evidence", jstr(evidence)).
		set("retrieved", jstr(in.retrieved)).
		set("licence", jstr(t.Licence)).
		set("licence_evidence", licence).
		set("workload", jstr(t.Workload)).
		set("method", jstr(t.Method)).
		set("selection", jstr(t.Selection)).
		set("cite", jstr(t.Cite)).
		set("cite_url", jstr(t.CiteURL)).
		set("used_for", jstr(t.UsedFor)).
		set("configurations", jstr(count)), nil
}

// recomputeModels rebuilds every model file from the stable rows, sorted
// by slug (see eachModel).
func recomputeModels(in *lbInputs, chat, index *problems) (models []*wantModel, broken map[string]bool, err error) {
	broken, err = eachModel(in, chat, index, func(m *wantModel) { models = append(models, m) })
	return models, broken, err
}

// eachModel rebuilds the model files from the stable rows one at a time,
// in slug order, and hands each to emit, which may drop it: a snapshot of
// many models is checked without holding every recomputed file at once.
// Problems with the upstream data that stop a model from being built are
// reported (on the task file or the index) and that model's slug is
// returned in broken, so that its file is not also reported as unexpected.
func eachModel(in *lbInputs, chat, index *problems, emit func(*wantModel)) (broken map[string]bool, err error) {
	src, err := sourceBlock(in)
	if err != nil {
		return nil, err
	}
	broken = map[string]bool{}
	byModel := map[string][]*lbRow{}
	var ids []string
	for _, r := range in.stable {
		if _, seen := byModel[r.modelID]; !seen {
			ids = append(ids, r.modelID)
		}
		byModel[r.modelID] = append(byModel[r.modelID], r)
	}
	sort.Strings(ids)
	type job struct {
		slug, id string
		ok       bool
	}
	var jobs []job
	slugOwner := map[string]string{}
	for _, id := range ids {
		rows := byModel[id]
		first := rows[0]
		slug := slugOf(first.nickname)
		ok := true
		if !modelIDForm.MatchString(id) {
			chat.add(first.where(), "model_id", "is %q, not OWNER/NAME (one \"/\", no white space)", id)
			continue
		}
		if slug == "" {
			chat.add(first.where(), "nickname", "%q gives an empty slug", first.nickname)
			continue
		}
		if len(slug) > maxSlugLen {
			chat.add(first.where(), "nickname", "%q gives a slug of %d bytes, over %d", first.nickname, len(slug), maxSlugLen)
			continue
		}
		if other, dup := slugOwner[slug]; dup {
			chat.add(first.where(), "nickname", "%q gives the slug %q, which %s has too", first.nickname, slug, other)
			broken[slug] = true
			continue
		}
		slugOwner[slug] = id
		nick, listed := in.index.nicknames[id]
		switch {
		case !listed:
			index.add("", "models", "has no model %q (lm-arena-chat %s)", id, first.where())
			ok = false
		case nick != first.nickname:
			index.add("", "models."+id+".nickname", "is %q, but lm-arena-chat %s names the model %q", nick, first.where(), first.nickname)
			ok = false
		}
		for _, r := range rows[1:] {
			if r.nickname != first.nickname || r.totalParams != first.totalParams ||
				r.activeParams != first.activeParams || r.arch != first.arch {
				chat.add(r.where(), "", "nickname, total_params_billions, activated_params_billions or architecture differ from %s of the same model", first.where())
				ok = false
			}
		}
		jobs = append(jobs, job{slug, id, ok})
	}
	sort.Slice(jobs, func(i, j int) bool { return jobs[i].slug < jobs[j].slug })
	for _, j := range jobs {
		rows := byModel[j.id]
		first := rows[0]
		m, good := recomputeModel(chat, j.slug, rows)
		if !j.ok || !good {
			broken[j.slug] = true
			continue
		}
		m.tree = jobj().
			set("version", jstr(modelVersion)).
			set("updated", jstr(in.date)).
			set("data_version", jstr(in.date)).
			set("unit", jstr(in.text.Unit)).
			set("itl_deadline_ms", jint(itlDeadlineMS)).
			set("source", src).
			set("caveat", jstr(in.text.Caveat)).
			set("boundary", jstr(in.text.Boundary)).
			set("slug", jstr(j.slug)).
			set("name", jstr(first.nickname)).
			set("model_id", jstr(j.id)).
			set("params_b", jnum(floatText(first.totalParams))).
			set("active_params_b", jnum(floatText(first.activeParams))).
			set("architecture", jstr(first.arch)).
			set("gpus", m.gpusNode()).
			set("configurations", m.configsNode()).
			set("best", m.bestNode())
		emit(m)
	}
	return broken, nil
}

func recomputeModel(chat *problems, slug string, rows []*lbRow) (*wantModel, bool) {
	m := &wantModel{slug: slug, modelID: rows[0].modelID, best: map[string]int{}}
	sorted := append([]*lbRow(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.gpu != b.gpu {
			return a.gpu < b.gpu
		}
		if a.numGPUs != b.numGPUs {
			return a.numGPUs < b.numGPUs
		}
		return a.maxNumSeqs < b.maxNumSeqs
	})
	type runKey struct {
		gpu         string
		numGPUs, mx int
	}
	repeats := map[runKey]int{}
	ok := true
	for _, r := range sorted {
		k := runKey{r.gpu, r.numGPUs, r.maxNumSeqs}
		repeats[k]++
		c, good := recomputeConfig(chat, slug, r, repeats[k])
		if !good {
			ok = false
			continue
		}
		m.configs = append(m.configs, c)
	}
	if !ok {
		return nil, false
	}
	for i, c := range m.configs {
		if c.row.medianITL > itlDeadlineMS {
			continue
		}
		j, seen := m.best[c.row.gpu]
		if !seen || beats(c, m.configs[j]) {
			m.best[c.row.gpu] = i
		}
	}
	return m, true
}

// beats reports whether a is a better best row than b: lower unrounded
// energy per token, then fewer GPUs, then the lower cap, then the lower
// repeat.
func beats(a, b *wantConfig) bool {
	ea, eb := *a.row.energy, *b.row.energy
	switch {
	case ea != eb:
		return ea < eb
	case a.row.numGPUs != b.row.numGPUs:
		return a.row.numGPUs < b.row.numGPUs
	case a.row.maxNumSeqs != b.row.maxNumSeqs:
		return a.row.maxNumSeqs < b.row.maxNumSeqs
	}
	return a.repeat < b.repeat
}

func recomputeConfig(chat *problems, slug string, r *lbRow, repeat int) (*wantConfig, bool) {
	precision, known := precisions[r.precision]
	if !known {
		chat.add(r.where(), "weight_precision", "is %q, which has no published precision (the mapping is reviewed in transform/model.go, Precisions)", r.precision)
		return nil, false
	}
	e := *r.energy // stable rows have a finite positive energy per token
	wh := e * 1e6 / 3600
	var tokens float64
	if r.outputLen != nil {
		tokens = *r.outputLen
	} else {
		tokens = *r.energyRequest / e
	}
	if !finite(tokens) || tokens < 0 || tokens > 1e12 {
		chat.add(r.where(), "avg_output_len", "gives an average output length of %v, out of range", tokens)
		return nil, false
	}
	rowID := fmt.Sprintf("%s/%s/%d/%d", slug, r.gpu, r.numGPUs, r.maxNumSeqs)
	if repeat > 1 {
		rowID += "/r" + strconv.Itoa(repeat)
	}
	under := r.medianITL <= itlDeadlineMS
	node := jobj().
		set("gpu", jstr(r.gpu)).
		set("num_gpus", jint(r.numGPUs)).
		set("tensor_parallel", jint(r.tp)).
		set("data_parallel", jint(r.dp)).
		set("expert_parallel", jint(r.ep)).
		set("precision", jstr(precision)).
		set("max_num_seqs", jint(r.maxNumSeqs)).
		set("avg_requests_in_flight", jnum(roundedText(r.avgBatch, 1))).
		set("wh_per_million_output_tokens", jnum(roundedText(wh, 2))).
		set("joules_per_output_token", jnum(roundedText(e, 7))).
		set("median_itl_ms", jnum(roundedText(r.medianITL, 1))).
		set("p90_itl_ms", jnum(roundedText(r.p90, 1))).
		set("p99_itl_ms", jnum(roundedText(r.p99, 1))).
		set("tokens_per_second", jnum(roundedText(r.throughput, 1))).
		set("gpu_power_watts_total", jnum(roundedInt(r.power))).
		set("avg_output_tokens", jnum(roundedInt(tokens))).
		set("under_itl_deadline", jbool(under)).
		set("avg_running_batch", jnum(roundedText(r.avgBatch, 1))).
		set("p95_itl_ms", jnum(roundedText(r.p95, 1))).
		set("row_id", jstr(rowID)).
		set("repeat", jint(repeat))
	return &wantConfig{row: r, rowID: rowID, repeat: repeat, node: node}, true
}

// origin says which upstream values a configuration's published field
// comes from. Only the text of key is made: the comparison asks it of
// every field of every configuration of a model file whose bytes differ
// (provenance), and nothing asks it of a file that matches; building the
// texts for all 30,000 configurations of a 10,000-model build had been a
// third of the recomputation.
func (c *wantConfig) origin(key string) string {
	r := c.row
	switch key {
	case "gpu":
		return "gpu_model " + strconv.Quote(r.gpu)
	case "num_gpus":
		return "num_gpus " + strconv.Itoa(r.numGPUs)
	case "tensor_parallel":
		return "tensor_parallel " + strconv.Itoa(r.tp)
	case "data_parallel":
		return "data_parallel " + strconv.Itoa(r.dp)
	case "expert_parallel":
		return "expert_parallel " + strconv.Itoa(r.ep)
	case "precision":
		return "weight_precision " + strconv.Quote(r.precision)
	case "max_num_seqs":
		return "max_num_seqs " + strconv.Itoa(r.maxNumSeqs)
	case "avg_requests_in_flight", "avg_running_batch":
		return "avg_batch_size " + rawText(r.avgBatch)
	case "wh_per_million_output_tokens":
		e := *r.energy
		return "energy_per_token_joules " + rawText(e) + " x 1e6 / 3600 = " + rawText(e*1e6/3600)
	case "joules_per_output_token":
		return "energy_per_token_joules " + rawText(*r.energy)
	case "median_itl_ms":
		return "median_itl_ms " + rawText(r.medianITL)
	case "p90_itl_ms":
		return "p90_itl_ms " + rawText(r.p90)
	case "p95_itl_ms":
		return "p95_itl_ms " + rawText(r.p95)
	case "p99_itl_ms":
		return "p99_itl_ms " + rawText(r.p99)
	case "tokens_per_second":
		return "output_throughput_tokens_per_sec " + rawText(r.throughput)
	case "gpu_power_watts_total":
		return "avg_power_watts " + rawText(r.power)
	case "avg_output_tokens":
		if r.outputLen != nil {
			return "avg_output_len " + rawText(*r.outputLen)
		}
		return fmt.Sprintf("energy_per_request_joules %s / energy_per_token_joules %s", rawText(*r.energyRequest), rawText(*r.energy))
	case "under_itl_deadline":
		cmp := "<="
		if !(r.medianITL <= itlDeadlineMS) {
			cmp = ">"
		}
		return fmt.Sprintf("median_itl_ms %s %s %d", rawText(r.medianITL), cmp, itlDeadlineMS)
	case "row_id", "repeat":
		return "sorted by gpu, num_gpus, max_num_seqs, then upstream order"
	}
	return ""
}

func (m *wantModel) gpusNode() *jnode {
	seen := map[string]bool{}
	var gpus []string
	for _, c := range m.configs {
		if !seen[c.row.gpu] {
			seen[c.row.gpu] = true
			gpus = append(gpus, c.row.gpu)
		}
	}
	sort.Strings(gpus)
	n := jarr()
	for _, g := range gpus {
		n.vals = append(n.vals, jstr(g))
	}
	return n
}

func (m *wantModel) configsNode() *jnode {
	n := jarr()
	for _, c := range m.configs {
		n.vals = append(n.vals, c.node)
	}
	return n
}

// bestGPUs returns the GPUs with a best row, sorted.
func (m *wantModel) bestGPUs() []string {
	gpus := make([]string, 0, len(m.best))
	for g := range m.best {
		gpus = append(gpus, g)
	}
	sort.Strings(gpus)
	return gpus
}

func (m *wantModel) bestNode() *jnode {
	n := jobj()
	for _, g := range m.bestGPUs() {
		n.set(g, m.configs[m.best[g]].node)
	}
	return n
}
