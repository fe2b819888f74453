package transform

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
)

// reviewedGPUs are the GPU names the rules were reviewed with. Another
// GPU is data, not an error, when it is a plain name (leaderboard.GPUName):
// the build logs it as new and publishes it like these.
var reviewedGPUs = []string{"B200", "H100"}

// ReviewedGPUs returns the GPU names the rules were reviewed with, sorted;
// the slice is the caller's own.
func ReviewedGPUs() []string { return slices.Clone(reviewedGPUs) }

// NewGPUs returns the GPUs of rows that are not ReviewedGPUs, sorted, with
// the number of rows of each.
func NewGPUs(rows []leaderboard.Row) map[string]int {
	out := map[string]int{}
	for i := range rows {
		if !slices.Contains(reviewedGPUs, rows[i].GPU) {
			out[rows[i].GPU]++
		}
	}
	return out
}

// PrecisionsFile is where the precision mapping is reviewed.
const PrecisionsFile = "transform/model.go (Precisions)"

// precisions (Precisions, as PrecisionsFile names it) maps upstream
// weight_precision values to the published ones. Another value is an error
// naming PrecisionsFile: a precision is a label a reader compares, and a
// new one is mapped only after review.
var precisions = map[string]string{"bfloat16": "BF16", "fp8": "FP8", "mxfp4": "MXFP4"}

// Built is a model file as the builder makes it: the published file and,
// for the steps after it (index.json's comparisons), the upstream row
// behind each of its configurations, in order.
type Built struct {
	File *format.Model
	Rows []*leaderboard.Row
}

// modelIDForm is the form of a published model id, OWNER/NAME (the
// schemas' model_id): another is bad upstream data, not a file that fails
// its schema.
var modelIDForm = regexp.MustCompile(`^[^\s/]+/[^\s/]+$`)

// MaxSlugLen bounds a slug's length, so that models/SLUG.json is a file
// name every file system takes (255 bytes).
const MaxSlugLen = 200

// Models builds every model file, sorted by slug.
func Models(lb *Leaderboard) ([]*Built, error) {
	var models []*Built
	if err := EachModel(lb, func(m *Built) error {
		models = append(models, m)
		return nil
	}); err != nil {
		return nil, err
	}
	return models, nil
}

// EachModel builds the model files that Models returns, in the same (slug)
// order, and hands each to fn as it is built, so that a caller that writes
// them out need not hold them all. It fails as Models does, before fn is
// called: every model is first built once, in model id order, to find the
// first error (a bad row, a slug two models give) and the slugs; each is
// then built again when its turn comes. It stops at fn's first error and
// returns it.
func EachModel(lb *Leaderboard, fn func(*Built) error) error {
	all, err := sourcetext.Load()
	if err != nil {
		return err
	}
	text := &all.Leaderboard
	compiled, evidence, _, err := lb.Evidence(text)
	if err != nil {
		return err
	}
	version, err := sourcetext.Fill(text.VersionTemplate, map[string]string{
		"leaderboard_version": text.LeaderboardVersion, "released": text.Released, "compiled": compiled})
	if err != nil {
		return err
	}
	count, err := sourcetext.Fill(text.ConfigurationsTemplate, map[string]string{"count": strconv.Itoa(len(lb.Tasks[format.PrimaryTask().ID]))})
	if err != nil {
		return err
	}
	src := format.Source{
		Name: text.Name, Publisher: text.Publisher, URL: text.URL, DataURL: lb.DataURL,
		Version: version, Released: text.Released, Compiled: compiled, CompiledEvidence: evidence,
		Retrieved: lb.Retrieved, Licence: text.Licence, LicenceEvidence: text.LicenceEvidence,
		Workload: text.Workload, Method: text.Method, Selection: text.Selection, Cite: text.Cite,
		CiteURL: text.CiteURL, UsedFor: text.UsedFor, Configurations: count,
	}

	primary := lb.Tasks[format.PrimaryTask().ID]
	byModel := map[string][]*leaderboard.Row{}
	for i := range primary {
		r := &primary[i]
		byModel[r.ModelID] = append(byModel[r.ModelID], r)
	}
	type pending struct {
		slug string
		rows []*leaderboard.Row
	}
	slugs := map[string]*leaderboard.Row{} // slug → first row of the model that has it
	var order []pending
	for _, id := range slices.Sorted(maps.Keys(byModel)) {
		rows := byModel[id]
		b, err := newModel(lb, rows)
		if err != nil {
			return err
		}
		slug := b.File.Slug
		if other, dup := slugs[slug]; dup {
			return fmt.Errorf("%s: field %q: %q gives the slug %q, which model %s (nickname %q, %s) has too",
				rows[0].Label(), leaderboard.FieldNickname, rows[0].Nickname, slug, other.ModelID, other.Nickname, other.Where())
		}
		slugs[slug] = rows[0]
		order = append(order, pending{slug, rows})
	}
	sort.Slice(order, func(i, j int) bool { return order[i].slug < order[j].slug })
	for _, p := range order {
		b, err := newModel(lb, p.rows) // built once already: no error
		if err != nil {
			return err
		}
		m := b.File
		m.Version, m.Updated, m.DataVersion = format.FormatVersion, lb.Date, lb.Date
		m.Unit, m.ITLDeadlineMS, m.Caveat, m.Boundary = format.PrimaryTask().Unit, format.ITLDeadlineMS, text.Caveat, text.Boundary
		m.Source = src
		if err := fn(b); err != nil {
			return err
		}
	}
	return nil
}

func newModel(lb *Leaderboard, rows []*leaderboard.Row) (*Built, error) {
	first := rows[0]
	im, ok := lb.Index.Models[first.ModelID]
	if !ok {
		return nil, fmt.Errorf("%s: model %q is not in leaderboard/index.json", first.Label(), first.ModelID)
	}
	if im.Nickname != first.Nickname {
		return nil, fmt.Errorf("%s: field %q: %q, but leaderboard/index.json names the model %q", first.Label(), leaderboard.FieldNickname, first.Nickname, im.Nickname)
	}
	m := &format.Model{
		Slug: leaderboard.Slug(first.Nickname), Name: first.Nickname, ModelID: first.ModelID,
		ParamsB: format.Float(first.TotalParams), ActiveParamsB: format.Float(first.ActiveParams),
		Architecture: first.Architecture, Best: map[string]format.Config{},
	}
	if !modelIDForm.MatchString(first.ModelID) {
		return nil, fmt.Errorf("%s: field %q: %q is not OWNER/NAME (one \"/\", no white space)", first.Label(), leaderboard.FieldModelID, first.ModelID)
	}
	if m.Slug == "" {
		return nil, fmt.Errorf("%s: field %q: %q gives an empty slug", first.Label(), leaderboard.FieldNickname, first.Nickname)
	}
	if len(m.Slug) > MaxSlugLen {
		return nil, fmt.Errorf("%s: field %q: the slug of %q is %d bytes long, over %d", first.Label(), leaderboard.FieldNickname, first.Nickname, len(m.Slug), MaxSlugLen)
	}
	for _, r := range rows[1:] {
		if r.Nickname != first.Nickname || r.TotalParams != first.TotalParams ||
			r.ActiveParams != first.ActiveParams || r.Architecture != first.Architecture {
			return nil, fmt.Errorf("%s: name, parameters or architecture differ from %s", r.Label(), first.Label())
		}
	}

	sorted := append([]*leaderboard.Row(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.GPU != b.GPU {
			return a.GPU < b.GPU
		}
		if a.NumGPUs != b.NumGPUs {
			return a.NumGPUs < b.NumGPUs
		}
		return a.MaxNumSeqs < b.MaxNumSeqs
	})
	b := &Built{File: m}
	task, ok := format.LookupTask(first.Task)
	if !ok {
		return nil, fmt.Errorf("%s: task %q is not one the index publishes", first.Label(), first.Task)
	}
	ceiling := task.Ceiling.Max
	for i, r := range sorted {
		c, err := newConfig(m.Slug, r, ceiling)
		if err != nil {
			return nil, err
		}
		if i > 0 && b.Rows[i-1].GPU == r.GPU && b.Rows[i-1].NumGPUs == r.NumGPUs && b.Rows[i-1].MaxNumSeqs == r.MaxNumSeqs {
			c.Repeat = m.Configurations[i-1].Repeat + 1
			c.RowID = format.RowID(r.Task, m.Slug, r.GPU, r.NumGPUs, r.MaxNumSeqs, c.Repeat)
		}
		m.Configurations = append(m.Configurations, c)
		b.Rows = append(b.Rows, r)
		if len(m.GPUs) == 0 || m.GPUs[len(m.GPUs)-1] != r.GPU {
			m.GPUs = append(m.GPUs, r.GPU)
		}
	}
	// Each GPU's index row, by the one implementation of the rule, which
	// the readers price with.
	for _, gpu := range m.GPUs {
		if i, ok := pricing.BestWith(m, b.Rows, gpu, 0); ok {
			m.Best[gpu] = m.Configurations[i]
		}
	}
	return b, nil
}

// newConfig is the published configuration of row r of the model slug: its
// figures rounded once, and whether its median ITL is under the task's
// ceiling.
func newConfig(slug string, r *leaderboard.Row, ceiling float64) (format.Config, error) {
	precision, ok := precisions[r.Precision]
	if !ok {
		return format.Config{}, fmt.Errorf("%s: field %q: unknown precision %q; the mapping to published precisions is reviewed in %s", r.Label(), leaderboard.FieldPrecision, r.Precision, PrecisionsFile)
	}
	e := *r.EnergyPerToken // the stability filter has checked it
	outputTokens, err := avgOutputTokens(r)
	if err != nil {
		return format.Config{}, err
	}
	return format.Config{
		GPU: r.GPU, NumGPUs: r.NumGPUs, TensorParallel: r.TP, DataParallel: r.DP, ExpertParallel: r.EP,
		Precision: precision, MaxNumSeqs: r.MaxNumSeqs,
		AvgRequestsInFlight: format.Round(r.AvgBatch, 1),
		WhPerMillion:        format.Round(leaderboard.WhPerMillion(e), 2),
		JoulesPerToken:      format.Round(e, 7),
		MedianITL:           format.Round(r.MedianITL, 1),
		P90ITL:              format.Round(r.P90ITL, 1),
		P99ITL:              format.Round(r.P99ITL, 1),
		TokensPerSecond:     format.Round(r.Throughput, 1),
		GPUPowerWatts:       format.RoundInt(r.Power),
		AvgOutputTokens:     outputTokens,
		UnderITLDeadline:    r.MedianITL <= ceiling,
		AvgRunningBatch:     format.Round(r.AvgBatch, 1),
		P95ITL:              format.Round(r.P95ITL, 1),
		RowID:               format.RowID(r.Task, slug, r.GPU, r.NumGPUs, r.MaxNumSeqs, 1),
		Repeat:              1,
	}, nil
}

func avgOutputTokens(r *leaderboard.Row) (int64, error) {
	x, err := leaderboard.OutputTokens(r)
	if err != nil {
		return 0, err
	}
	if x < 0 || x > 1e12 {
		return 0, fmt.Errorf("%s: average output length %v is out of range", r.Label(), x)
	}
	return format.RoundInt(x), nil
}
