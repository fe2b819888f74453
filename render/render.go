package render

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/sourcetext"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/pricing"
)

// DefaultGrids returns the grids of a page's carbon table, in the order
// shown: India, Saudi Arabia, Hong Kong, Serbia, World, Germany and Norway,
// by ISO 3 code, which Ember keeps when it renames an area (World, a region,
// has none). Each call returns a new slice.
func DefaultGrids() []string {
	return []string{"IND", "SAU", "HKG", "SRB", "World", "DEU", "NOR"}
}

// Options configure the pages.
type Options struct {
	// Grids are the carbon table's grids, each a grid.json area name or
	// ISO 3 code (pricing.Lookup), in the order shown. Nil means DefaultGrids.
	// A grid that grid.json does not list is left out and named under the
	// table; a snapshot without grid.json gets a carbon section that says so.
	Grids []string
	// IndexURL is the address the page's "Cite as" names: where the site
	// the page belongs to is published. "" names the index's own address
	// (internal/sourcetext's index_url), as the snapshot's pages do.
	IndexURL string
}

func (o Options) grids() []string {
	if o.Grids == nil {
		return DefaultGrids()
	}
	return o.Grids
}

// loadText reads the pages' reviewed fixed text (internal/sourcetext's
// pages.json) once: every page prints the same words.
var loadText = sync.OnceValues(func() (*sourcetext.Pages, error) {
	t, err := sourcetext.Load()
	if err != nil {
		return nil, err
	}
	return &t.Pages, nil
})

// File is one rendered page.
type File struct {
	Path string // pages/SLUG.md
	Data []byte
}

// Each renders every model of the index in the index's order (by slug)
// and hands each page to fn as it is rendered: a caller that writes each
// page out and lets it go holds one page at a time. It stops at the first
// error, a page's or fn's, and returns it.
func Each(s *Snapshot, opts Options, fn func(f File) error) error {
	for _, e := range s.Index.Models {
		b, err := Render(s, e.Slug, opts)
		if err != nil {
			return err
		}
		if err := fn(File{Path: format.PagePath(e.Slug), Data: b}); err != nil {
			return err
		}
	}
	return nil
}

// indexRow is one GPU's index row with the archived row behind it.
type indexRow struct {
	gpu string
	c   format.Config
	r   *leaderboard.Row
}

// view is what one page is made of.
type view struct {
	s    *Snapshot
	e    *format.IndexEntry
	m    *format.Model
	text *sourcetext.Pages
	// indexURL is Options.IndexURL: the address the citation names.
	indexURL string
	// rows are the archived rows of the model's configurations, in order.
	rows []*leaderboard.Row
	// best holds the index rows by GPU name; lowest is the one with the
	// lowest energy per token.
	best   []indexRow
	lowest *indexRow
	gpuCmp *format.GPUComparison
	tasks  []format.TaskComparison
	curves map[string]*format.LoadCurve
	// labels are the figures' point labels by configuration, made once
	// (every line figure has a point of each configuration).
	labels []string
	// figures is false when the Doc is only written as Markdown, which
	// leaves figures out: they are not made.
	figures bool
	// carbonRows and missingGrids are priced(opts), and carbonText
	// the carbonSentence of carbonRows: the carbon section and the
	// questions both say it. gpuText and taskText are gpuSentence and
	// taskSentence, made once (memo).
	carbonRows        []carbonRow
	missingGrids      []string
	carbonText        string
	gpuText, taskText string
}

// Render writes the page of the model slug as Markdown.
func Render(s *Snapshot, slug string, opts Options) ([]byte, error) {
	d, err := build(s, slug, opts, false)
	if err != nil {
		return nil, err
	}
	return d.Markdown(), nil
}

// Build makes the page of the model slug as a Doc: what Render writes as
// Markdown and the site writes as HTML.
func Build(s *Snapshot, slug string, opts Options) (*Doc, error) {
	return build(s, slug, opts, true)
}

// build is Build, with the figures only when figures is true.
func build(s *Snapshot, slug string, opts Options, figures bool) (*Doc, error) {
	v, err := newView(s, slug, opts)
	if err != nil {
		return nil, err
	}
	v.figures = figures
	d := &Doc{Slug: slug, Name: v.m.Name}
	steps := []func(*Doc) error{
		v.head, v.configurations, v.gpuComparison,
		v.carbon, v.taskComparison, v.questions, v.sources,
	}
	for _, step := range steps {
		if err := step(d); err != nil {
			return nil, fmt.Errorf("page %s: %w", slug, err)
		}
	}
	return d, nil
}

func newView(s *Snapshot, slug string, opts Options) (*view, error) {
	t, err := loadText()
	if err != nil {
		return nil, err
	}
	v := &view{s: s, text: t, indexURL: opts.IndexURL, curves: map[string]*format.LoadCurve{}}
	at := s.entries(slug)
	if at.entry < 0 {
		return nil, fmt.Errorf("no model %q in %s", slug, format.IndexPath)
	}
	v.e = &s.Index.Models[at.entry]
	if v.m, err = s.model(v.e); err != nil {
		return nil, err
	}
	v.m = escapedModel(v.m) // upstream text: no markup reaches the page
	for _, c := range v.m.Configurations {
		r, err := s.row(s.primary.ID, v.e.File, c.RowID, c.JoulesPerToken, c.AvgRunningBatch)
		if err != nil {
			return nil, err
		}
		v.rows = append(v.rows, r)
	}
	for _, gpu := range sortedGPUs(v.m.Best) {
		c := v.m.Best[gpu]
		ir := indexRow{gpu: gpu, c: c, r: v.rowOf(c.RowID)}
		if ir.r == nil {
			return nil, fmt.Errorf("%s: best %s row %s is not among the configurations", v.e.File, gpu, c.RowID)
		}
		v.best = append(v.best, ir)
	}
	for i := range v.best {
		if v.lowest == nil || *v.best[i].r.EnergyPerToken < *v.lowest.r.EnergyPerToken {
			v.lowest = &v.best[i]
		}
	}
	if at.gpuCmp >= 0 {
		v.gpuCmp = &s.Index.GPUComparisons[at.gpuCmp]
	}
	for _, i := range at.tasks {
		v.tasks = append(v.tasks, s.Index.TaskComparisons[i])
	}
	for _, i := range at.curves {
		lc := &s.Index.LoadCurves[i]
		v.curves[lc.GPU] = lc
	}
	if v.lowest != nil && s.Grid != nil {
		v.carbonRows, v.missingGrids = v.priced(opts)
		if len(v.carbonRows) > 0 {
			v.carbonText = v.carbonSentence(v.carbonRows)
		}
	}
	return v, nil
}

// memo returns *text, made by make the first time.
func memo(text *string, make func() (string, error)) (string, error) {
	if *text == "" {
		s, err := make()
		if err != nil {
			return "", err
		}
		*text = s
	}
	return *text, nil
}

func sortedGPUs(m map[string]format.Config) []string {
	var out []string
	for g := range m {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

func (v *view) rowOf(id string) *leaderboard.Row {
	for i, c := range v.m.Configurations {
		if c.RowID == id {
			return v.rows[i]
		}
	}
	return nil
}

// ref returns the archived row behind a row reference of index.json.
func (v *view) ref(task string, r format.RowRef) (*leaderboard.Row, error) {
	return v.s.row(task, format.IndexPath, r.RowID, r.JoulesPerToken, r.AvgRunningBatch)
}

// Figures of an archived row, at the page's precision.
func wh(r *leaderboard.Row) string    { return dec1(r.WhPerMillion()) }
func batch(r *leaderboard.Row) string { return whole(r.AvgBatch) }
func itl(r *leaderboard.Row) string   { return whole(r.MedianITL) }
func tps(r *leaderboard.Row) string   { return whole(r.Throughput) }
func watts(r *leaderboard.Row) string { return whole(r.Power) }

// on names a configuration's hardware: "1 × B200".
func on(n int, gpu string) string { return strconv.Itoa(n) + " × " + md(gpu) }

func cards(n int) string { return strconv.Itoa(n) + " " + plural(n, "card", "cards") }

var architectures = map[string]string{
	"Dense Transformer":        "a dense transformer",
	"MoE":                      "a mixture-of-experts model",
	"Mamba-Transformer Hybrid": "a hybrid of Mamba and transformer layers",
}

func (v *view) head(d *Doc) error {
	m := v.m
	d.Title = m.Name + ": GPU energy per million output tokens"
	d.h(1, "", d.Title)
	if len(v.best) == 0 {
		d.p(fmt.Sprintf("None of the %d configurations of %s that the %s measured keeps its median inter-token latency under the %d ms ceiling, so the model has no index row.",
			len(m.Configurations), m.Name, m.Source.Name, m.ITLDeadlineMS))
	} else {
		var parts []string
		for _, b := range v.best {
			parts = append(parts, fmt.Sprintf("%s Wh/M on %s (running batch %s, median inter-token latency %s ms)",
				wh(b.r), on(b.c.NumGPUs, b.gpu), batch(b.r), itl(b.r)))
		}
		d.p(fmt.Sprintf("%s uses %s, in watt-hours of GPU energy per million output tokens, at the most energy-efficient configuration the %s measured on %s. That is a floor: a server with fewer requests in flight uses more per token.",
			m.Name, list(parts), m.Source.Name, plural(len(v.best), "that GPU", "each GPU")))
	}
	arch, ok := architectures[m.Architecture]
	if !ok {
		arch = "architecture " + m.Architecture
	}
	params := short(m.ParamsB) + " billion parameters"
	if m.ActiveParamsB != m.ParamsB {
		params += ", " + short(m.ActiveParamsB) + " billion active per token"
	}
	var precisions []string
	seen := map[string]bool{}
	for _, c := range m.Configurations {
		if !seen[c.Precision] {
			seen[c.Precision] = true
			precisions = append(precisions, c.Precision)
		}
	}
	sort.Strings(precisions)
	d.p(fmt.Sprintf("Model %s: %s with %s, weights in %s. Measured %d %s on %s. Data: %s, updated %s.",
		m.ModelID, arch, params, list(precisions), len(m.Configurations), plural(len(m.Configurations), "configuration", "configurations"),
		list(m.GPUs), v.e.File, longDate(m.Updated)))
	perWh := strconv.FormatFloat(leaderboard.JoulesPerWh/leaderboard.TokensPerMillion, 'f', -1, 64)
	d.p(fmt.Sprintf("%s Unit: watt-hours per million output tokens (Wh/M); 1 Wh/M is %s joules per token.", m.Caveat, perWh))
	return nil
}

// curveSentence describes a load curve: from the smallest cap to the index
// row, and the row past it.
func (v *view) curveSentence(lc *format.LoadCurve) (string, error) {
	from, err := v.ref(v.s.primary.ID, lc.From)
	if err != nil {
		return "", err
	}
	to, err := v.ref(v.s.primary.ID, lc.To)
	if err != nil {
		return "", err
	}
	hw := on(lc.NumGPUs, lc.GPU)
	var b strings.Builder
	if lc.From.RowID == lc.To.RowID {
		fmt.Fprintf(&b, "On %s, the index row is the smallest cap measured (%d): %s Wh/M at a running batch of %s, median inter-token latency %s ms.",
			hw, lc.To.MaxNumSeqs, wh(to), batch(to), itl(to))
	} else {
		power := fmt.Sprintf("rises %d percent", lc.GPUPowerRisePercent)
		if lc.GPUPowerRisePercent < 0 {
			power = fmt.Sprintf("falls %d percent", -lc.GPUPowerRisePercent)
		}
		// The highest latency is shown from its unrounded row, like every
		// other whole-number figure (index.json holds it to 1 decimal).
		top := v.s.Rows[v.s.primary.ID][lc.MaxMedianITLRowID]
		if top == nil || format.Round(top.MedianITL, 1) != lc.MaxMedianITL {
			return "", fmt.Errorf("%s: load curve %s on %s: max_median_itl_row_id %s is not the row of max_median_itl_ms %v", format.IndexPath, lc.Slug, lc.GPU, lc.MaxMedianITLRowID, float64(lc.MaxMedianITL))
		}
		fmt.Fprintf(&b, "On %s, energy per token falls %s from %s Wh/M at a running batch of %s to %s Wh/M at %s, while the %s power %s (from %s to %s W) and throughput rises %s (from %s to %s tokens a second). Median inter-token latency stays at %s ms or under up to the index row.",
			hw, times(lc.EnergyPerTokenFall), wh(from), batch(from), wh(to), batch(to), plural(lc.NumGPUs, "card's", "cards'"), power, watts(from), watts(to),
			times(lc.ThroughputRise), tps(from), tps(to), itl(top))
	}
	if lc.Past == nil {
		fmt.Fprintf(&b, " No larger cap was measured on %s.", plural(lc.NumGPUs, "this card", "these cards"))
	} else {
		past, err := v.ref(v.s.primary.ID, *lc.Past)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, " One step past it, at a cap of %d, the same %s %s Wh/M at %s ms.",
			lc.Past.MaxNumSeqs, plural(lc.NumGPUs, "card uses", "cards use"), wh(past), itl(past))
	}
	return b.String(), nil
}

func (v *view) configurations(d *Doc) error {
	m := v.m
	d.h(2, "configurations", "Every configuration")
	for _, b := range v.best {
		lc := v.curves[b.gpu]
		if lc == nil {
			return fmt.Errorf("%s has no load curve for %s on %s", format.IndexPath, m.Slug, b.gpu)
		}
		s, err := v.curveSentence(lc)
		if err != nil {
			return err
		}
		d.p(s)
	}
	if v.figures {
		d.add(v.energyFigure())
		d.add(v.loadFigure("throughput"))
		d.add(v.loadFigure("power"))
	}
	bestID := map[string]bool{}
	for _, b := range v.best {
		bestID[b.c.RowID] = true
	}
	var t *Table
	for i, c := range m.Configurations {
		if i == 0 || c.GPU != m.Configurations[i-1].GPU || c.NumGPUs != m.Configurations[i-1].NumGPUs {
			hw := on(c.NumGPUs, c.GPU)
			d.h(3, configID(c.NumGPUs, c.GPU), hw)
			t = &Table{Caption: m.Name + " on " + hw + ", every configuration measured",
				Head: []string{"Cap", "Running batch (avg)", "Wh / M", "Median ITL (ms)", "Tokens / s", "GPU power (W)", "Index row"}}
			d.add(t)
		}
		r := v.rows[i]
		capCell := strconv.Itoa(c.MaxNumSeqs)
		if c.Repeat > 1 {
			capCell += fmt.Sprintf(" (repeat %d)", c.Repeat)
		}
		mark := ""
		if bestID[c.RowID] {
			mark = "index row"
		}
		t.Rows = append(t.Rows, TableRow{Marked: mark != "", Cells: []string{
			capCell, batch(r), wh(r), itl(r), tps(r), group(strconv.FormatInt(c.GPUPowerWatts, 10)), mark}})
	}
	d.p(fmt.Sprintf("Cap is the server's limit on requests decoded at once (vLLM's max_num_seqs). Running batch is the average number it actually decoded at once over the steady-state window (vLLM's num_requests_running); requests waiting in the queue do not count. The index row of each GPU is marked: the lowest energy per token with a median inter-token latency of %d ms or less. Wh/M comes from the source's joules per output token. %s GPU power is the average draw of all the configuration's GPUs together.", m.ITLDeadlineMS, format.EnergyScope()))
	return nil
}

// gpuNames are the names of the GPU comparison's two GPUs, unescaped: the
// GPUs of the model's index entry whose keys (format.GPUKey) the
// comparison has.
func (v *view) gpuNames() (over, under string, err error) {
	g := v.gpuCmp
	named := func(key string) (string, error) {
		for _, gpu := range v.e.GPUs {
			if format.GPUKey(gpu) == key {
				return gpu, nil
			}
		}
		return "", fmt.Errorf("%s: gpu_comparisons: %s has no GPU of the key %q", format.IndexPath, g.Slug, key)
	}
	if over, err = named(g.Over.Key); err == nil {
		under, err = named(g.Under.Key)
	}
	return over, under, err
}

func (v *view) gpuSentence() (string, error) {
	g := v.gpuCmp
	over, under, err := v.gpuNames()
	if err != nil {
		return "", err
	}
	o, err := v.ref(v.s.primary.ID, g.Over.RowRef)
	if err != nil {
		return "", err
	}
	u, err := v.ref(v.s.primary.ID, g.Under.RowRef)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("At the index rows, %s on %s uses %s the energy per token it uses on %s: %s Wh/M on %s against %s Wh/M on %s.",
		v.m.Name, md(over), times(g.EnergyPerTokenRatio), md(under), wh(o), on(g.Over.NumGPUs, over), wh(u), on(g.Under.NumGPUs, under)), nil
}

func (v *view) gpuComparison(d *Doc) error {
	if v.gpuCmp == nil {
		return nil
	}
	g := v.gpuCmp
	s, err := memo(&v.gpuText, v.gpuSentence)
	if err != nil {
		return err
	}
	over, under, _ := v.gpuNames() // gpuSentence has named them
	o, _ := v.ref(v.s.primary.ID, g.Over.RowRef)
	u, _ := v.ref(v.s.primary.ID, g.Under.RowRef)
	d.h(2, "gpus", md(over)+" against "+md(under))
	d.p(fmt.Sprintf("%s The leaderboard did not sweep the two GPUs alike: the %s row holds a running batch of %s on %s, the %s row %s on %s, so part of the gap comes from the configuration rather than the chip. The comparison for all %d %s is in the index.",
		s, md(over), batch(o), cards(g.Over.NumGPUs), md(under), batch(u), cards(g.Under.NumGPUs),
		len(v.s.Index.GPUComparisons), plural(len(v.s.Index.GPUComparisons), "model", "models")))
	return nil
}

// carbonRow is one grid of the carbon table.
type carbonRow struct {
	area format.Area
	kg   format.Float
}

// priced prices the lowest index row on the display grids, and names the
// grids grid.json does not list.
func (v *view) priced(opts Options) (rows []carbonRow, missing []string) {
	perM := v.lowest.r.WhPerMillion()
	for _, q := range opts.grids() {
		a, ok := v.s.area(q)
		if !ok {
			missing = append(missing, md(q))
			continue
		}
		shown := *a
		shown.Name = md(a.Name)
		rows = append(rows, carbonRow{shown, pricing.KgPerBillionTokens(perM, float64(a.GCO2ePerKWh))})
	}
	return rows, missing
}

func kg(x format.Float) string { return strconv.FormatFloat(float64(x), 'f', 1, 64) }

// intensity prints an area's g CO2e per kWh as a whole number, with its
// year beside it when that is not the reference year (a fallback): "707",
// "912 (2023)".
func (v *view) intensity(a format.Area) string {
	s := whole(float64(a.GCO2ePerKWh))
	if a.Year != v.s.Grid.Year {
		s += fmt.Sprintf(" (%d)", a.Year)
	}
	return s
}

func where(a format.Area) string {
	if a.Name == format.World {
		return "on the world average grid"
	}
	return "in " + a.Name
}

// carbonSentence names the highest and the lowest of the display grids.
func (v *view) carbonSentence(rows []carbonRow) string {
	hi, lo := rows[0], rows[0]
	for _, r := range rows[1:] {
		if r.area.GCO2ePerKWh > hi.area.GCO2ePerKWh {
			hi = r
		}
		if r.area.GCO2ePerKWh < lo.area.GCO2ePerKWh {
			lo = r
		}
	}
	// The first figure names its year: the reference year, or the
	// fallback's own; the second names its year only when it differs.
	s := fmt.Sprintf("At its index row on %s, a billion output tokens of %s carry about %s kg CO2e of GPU-side emissions %s (%s g CO2e per kWh, %s %d)",
		on(v.lowest.c.NumGPUs, v.lowest.gpu), v.m.Name, kg(hi.kg), where(hi.area), whole(float64(hi.area.GCO2ePerKWh)), v.s.Grid.Source.Name, hi.area.Year)
	if lo.area.Name != hi.area.Name {
		lv := whole(float64(lo.area.GCO2ePerKWh))
		if lo.area.Year != hi.area.Year {
			lv += fmt.Sprintf(", %d", lo.area.Year)
		}
		s += fmt.Sprintf(" and %s kg %s (%s)", kg(lo.kg), where(lo.area), lv)
	}
	return s + "."
}

func (v *view) carbon(d *Doc) error {
	if v.lowest == nil {
		return nil
	}
	d.h(2, "carbon", "Carbon on different grids")
	if v.s.Grid == nil {
		d.p(fmt.Sprintf("This snapshot has no %s, so the page shows no carbon figures.", format.GridPath))
		return nil
	}
	rows, missing := v.carbonRows, v.missingGrids
	if len(rows) > 0 {
		d.p(v.carbonText + " Energy per token is the same on every grid; carbon per token is not.")
		if v.figures {
			d.add(v.carbonFigure(rows))
		}
		t := &Table{Caption: v.carbonCaption(), Head: []string{"Grid", "g CO2e per kWh", "kg CO2e per billion output tokens"}}
		for _, r := range rows {
			t.Rows = append(t.Rows, TableRow{Cells: []string{r.area.Name, v.intensity(r.area), kg(r.kg)}})
		}
		d.add(t)
	}
	if len(missing) > 0 {
		d.p(fmt.Sprintf("Not in this snapshot's %s for %d: %s.", format.GridPath, v.s.Grid.Year, list(missing)))
	}
	fallbacks := 0
	for _, a := range v.s.Grid.Areas {
		if a.Fallback {
			fallbacks++
		}
	}
	listed := fmt.Sprintf("all %d grids with a value for %d", len(v.s.Grid.Areas), v.s.Grid.Year)
	if fallbacks > 0 {
		listed = fmt.Sprintf("%d grids: their %d value, or for the %d without one, their latest earlier value, with its year in brackets", len(v.s.Grid.Areas), v.s.Grid.Year, fallbacks)
	}
	d.p(fmt.Sprintf("Carbon in kg CO2e per billion output tokens = Wh/M × g CO2e per kWh ÷ 1,000, from the unrounded Wh/M. %s %s lists %s.",
		v.s.Grid.Source.Definition, format.GridPath, listed))
	return nil
}

// taskSentence compares each other task with the primary one on every GPU
// with a pair: a sentence per task, in the order of the comparisons.
func (v *view) taskSentence() (string, error) {
	base := v.s.primary.Name
	var order []string
	parts := map[string][]string{}
	for _, tc := range v.tasks {
		other, ok := format.LookupTask(tc.Other.Task)
		if !ok {
			return "", fmt.Errorf("%s: task_comparisons: %s compares task %q, which this renderer does not know", format.IndexPath, tc.Slug, tc.Other.Task)
		}
		c, err := v.ref(tc.Base.Task, tc.Base.RowRef)
		if err != nil {
			return "", err
		}
		p, err := v.ref(tc.Other.Task, tc.Other.RowRef)
		if err != nil {
			return "", err
		}
		hw := "on " + on(tc.Base.NumGPUs, tc.GPU)
		if tc.Base.NumGPUs != tc.Other.NumGPUs {
			hw = fmt.Sprintf("on %s (%d GPUs for %s, %d for %s)", md(tc.GPU), tc.Other.NumGPUs, other.Name, tc.Base.NumGPUs, base)
		}
		if _, seen := parts[other.Name]; !seen {
			order = append(order, other.Name)
		}
		parts[other.Name] = append(parts[other.Name], fmt.Sprintf("%s the energy per response and %s the energy per token %s (answers of %s tokens against %s; running batch %s against %s)",
			times(tc.EnergyPerResponseRatio), times(tc.EnergyPerTokenRatio), hw,
			group(strconv.FormatInt(tc.Other.AvgOutputTokens, 10)), group(strconv.FormatInt(tc.Base.AvgOutputTokens, 10)),
			batch(p), batch(c)))
	}
	var sentences []string
	for _, name := range order {
		sentences = append(sentences, fmt.Sprintf("On the leaderboard's %s task, %s uses %s, compared with %s.",
			name, v.m.Name, strings.Join(parts[name], ", and "), base))
	}
	return strings.Join(sentences, " "), nil
}

func (v *view) taskComparison(d *Doc) error {
	if len(v.tasks) == 0 {
		return nil
	}
	s, err := memo(&v.taskText, v.taskSentence)
	if err != nil {
		return err
	}
	// Say why energy per token moves only where the figures show it: on
	// every GPU, a smaller batch and more energy per token.
	why := " Long answers leave room for fewer requests in the batch, which is why the energy per token moves as well."
	for _, tc := range v.tasks {
		if tc.Other.AvgRunningBatch >= tc.Base.AvgRunningBatch || tc.EnergyPerTokenRatio <= 1 {
			why = ""
		}
	}
	n := len(v.s.Index.TaskComparisons)
	d.h(2, "tasks", "Two tasks")
	d.p(fmt.Sprintf("%s%s Each side is that task's index row under the same %d ms ceiling. All %d %s are in the index.",
		s, why, v.m.ITLDeadlineMS, n, plural(n, "pair", "pairs")))
	return nil
}

// leaderboardVersion is the version part of the source's version text
// ("3.0" of "3.0 (released 2025-12-01); data compiled 2026-02-16").
func (v *view) leaderboardVersion() string {
	ver, _, _ := strings.Cut(v.m.Source.Version, " (")
	return ver
}

func (v *view) questions(d *Doc) error {
	m := v.m
	d.h(2, "questions", "Questions")
	q := func(question, answer string) {
		d.h(3, "", question)
		d.p(answer)
	}

	if len(v.best) > 0 {
		var parts []string
		for i, b := range v.best {
			s := fmt.Sprintf("%s Wh", wh(b.r))
			if i == 0 {
				s += " of GPU energy per million output tokens"
			}
			parts = append(parts, s+" on "+on(b.c.NumGPUs, b.gpu))
		}
		q(fmt.Sprintf("How much energy does %s use per million output tokens?", m.Name),
			fmt.Sprintf("At the most energy-efficient configuration measured, %s (%s %s, %s, data compiled %s). Host, network, cooling and idle time are not counted, so each figure is a floor.",
				list(parts), m.Source.Name, v.leaderboardVersion(), v.s.primary.Name, longDate(m.Source.Compiled)))
	}
	if v.gpuCmp != nil {
		s, err := memo(&v.gpuText, v.gpuSentence)
		if err != nil {
			return err
		}
		over, under, _ := v.gpuNames() // gpuSentence has named them
		q(fmt.Sprintf("Is %s more energy-efficient on %s or %s?", m.Name, md(under), md(over)),
			s+" Both are floors at high load, and the two rows differ in GPU count and running batch.")
	}
	if v.lowest != nil {
		lc := v.curves[v.lowest.gpu]
		if lc != nil && lc.From.RowID != lc.To.RowID {
			from, err := v.ref(v.s.primary.ID, lc.From)
			if err != nil {
				return err
			}
			to := v.lowest.r
			who := plural(lc.NumGPUs, "the card draws", "the cards draw")
			power := fmt.Sprintf("%s %d percent more power", who, lc.GPUPowerRisePercent)
			if lc.GPUPowerRisePercent < 0 {
				power = fmt.Sprintf("%s %d percent less power", who, -lc.GPUPowerRisePercent)
			}
			q(fmt.Sprintf("How much does load change the energy per token of %s?", m.Name),
				fmt.Sprintf("On %s, energy per token falls %s between a running batch of %s (%s Wh/M) and %s (%s Wh/M): %s while throughput rises %s. A server holding only a few requests at a time sits near the top of that range.",
					on(lc.NumGPUs, lc.GPU), times(lc.EnergyPerTokenFall), batch(from), wh(from), batch(to), wh(to), power, times(lc.ThroughputRise)))
		}
	}
	if v.carbonText != "" {
		q(fmt.Sprintf("What is the carbon footprint of a billion output tokens of %s?", m.Name),
			v.carbonText+" For another grid, multiply the Wh/M figure by the grid's g CO2e per kWh and divide by 1,000: the result is kg per billion tokens.")
	}
	if len(v.tasks) > 0 {
		s, err := memo(&v.taskText, v.taskSentence)
		if err != nil {
			return err
		}
		q(fmt.Sprintf("Does %s use more energy on reasoning or problem-solving tasks?", m.Name), s)
	}
	q(fmt.Sprintf("Is this the energy my %s deployment will use?", m.Name),
		fmt.Sprintf("Probably not. Each figure is the lowest-energy configuration under the leaderboard's %d ms median inter-token latency ceiling, on a busy server, GPU only. A real deployment sits above it, often several times above; the configuration tables show how far. %s",
			m.ITLDeadlineMS, v.text.OwnMeasurement))
	q("Where do these figures come from?",
		fmt.Sprintf("From the %s %s (%s), released %s, data compiled %s, retrieved %s: %d stable %s of %s in the %s task.%s Every number is recomputed from a dated snapshot of the sources.",
			m.Source.Name, v.leaderboardVersion(), publisherName(m.Source.Publisher), longDate(m.Source.Released), longDate(m.Source.Compiled), longDate(m.Source.Retrieved),
			len(m.Configurations), plural(len(m.Configurations), "configuration", "configurations"), m.Name, v.s.primary.Name, v.gridCredit(" Grid intensities: %s's %d yearly figures.")))
	return nil
}

// publisherName is the publisher without its parenthesis.
func publisherName(p string) string {
	name, _, _ := strings.Cut(p, " (")
	return name
}

func (v *view) gridCredit(format string) string {
	if v.s.Grid == nil {
		return ""
	}
	return fmt.Sprintf(format, v.s.Grid.Source.Name, v.s.Grid.Year)
}

func (v *view) sources(d *Doc) error {
	m, src := v.m, v.m.Source
	d.h(2, "sources", "Sources")
	var counts []string
	for _, t := range v.s.Index.Source.Tasks {
		counts = append(counts, fmt.Sprintf("%s task, %d stable configurations", t.Name, t.StableConfigurations))
	}
	d.p(fmt.Sprintf("%s, version %s (released %s; data compiled %s; retrieved %s), %s, %s. %s. %s %s Licence: %s. Cite %s, %s.",
		src.Name, v.leaderboardVersion(), longDate(src.Released), longDate(src.Compiled), longDate(src.Retrieved), src.Publisher, src.URL,
		strings.Join(counts, "; "), src.Method, src.Selection, src.Licence, src.Cite, src.CiteURL))
	if g := v.s.Grid; g != nil {
		release := md(g.Source.Release) + " release"
		if g.Source.Release == "not stated" {
			release = "release not stated"
		}
		d.p(fmt.Sprintf("Grid intensity: %s, %s, %s, %d (%s), %s.", g.Source.Name, g.Source.Title, release, g.Year, g.Source.Licence, g.Source.URL))
	}
	card, err := sourcetext.Fill(v.text.ModelCardURL, map[string]string{"model_id": urlPath(v.e.ModelID)})
	if err != nil {
		return err
	}
	d.p(fmt.Sprintf("Model card: %s.", card))
	cite, err := CiteAs(m.Updated, v.indexURL)
	if err != nil {
		return err
	}
	d.p("Cite as: " + cite)
	files := []string{format.IndexPath, v.e.File}
	if v.s.Grid != nil {
		files = append(files, format.GridPath)
	}
	d.p(fmt.Sprintf("This page is generated from the snapshot of %s (%s, and the archived task files); no figure on it is typed by hand.", longDate(m.Updated), strings.Join(files, ", ")))
	return nil
}
