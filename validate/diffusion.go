package validate

// The diffusion tasks' rows (text-to-image, text-to-video), read and left
// out by the published rule on their own: a batch of images or videos
// generated on num_gpus GPUs, with its energy per image or video.

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Plausibility bounds of a diffusion row (a row beyond one is left out
// and listed in the manifest's exclusions); real values of the eight
// shared versions with each.
const (
	minJoulesPerImage = 1.0   // energy_per_image_joules (real 338 to 26,071)
	maxJoulesPerImage = 1e6   //
	minJoulesPerVideo = 10.0  // energy_per_video_joules (real 26,360 to 1,486,300)
	maxJoulesPerVideo = 1e9   //
	minBatchLatencyS  = 0.001 // batch_latency_s (real 0.64 to 6,288)
	maxBatchLatencyS  = 1e6   //
	maxPixels         = 65536 // width and height, from 8 (real 480 to 1,360)
	maxSteps          = 10000 // inference_steps, from 1 (real 20 to 50)
	maxFrames         = 1e6   // num_frames, from 1 (real 49 to 129)
	maxFPS            = 1000  // fps, from 0.1 (real 8 to 15)
	maxBatchSize      = 1e5   // batch_size, from 1 (real 1 to 32)
)

// dRow is one row of a diffusion task file, with the values the published
// rules read.
type dRow struct {
	task   string
	index  int
	video  bool
	slug   string // set by sortDiffusion
	repeat int    // set by sortDiffusion

	modelID, nickname, gpu, precision              string
	numGPUs, ulysses, ring, batch                  int
	width, height, steps, frames                   int
	totalParams, activeParams, fps, latency, power float64
	energy                                         *float64
	content                                        [sha256.Size]byte
}

func (r *dRow) ident() rowIdent {
	return rowIdent{modelID: r.modelID, nickname: r.nickname, totalParams: r.totalParams, activeParams: r.activeParams}
}

func (r *dRow) where() string {
	return fmt.Sprintf("configurations[%d] (%s on %d x %s, batch_size %d)", r.index, r.modelID, r.numGPUs, r.gpu, r.batch)
}

// energyKey is the row's upstream field of its energy per image or video.
func (r *dRow) energyKey() string {
	if r.video {
		return "energy_per_video_joules"
	}
	return "energy_per_image_joules"
}

// parseDRow reads a diffusion row's fields (rp's problems name them).
func parseDRow(rp *rowParser, video bool) *dRow {
	r := &dRow{video: video}
	r.modelID, r.nickname, r.gpu = rp.str("model_id"), rp.str("nickname"), rp.gpuModel()
	if _, ok := rp.m["weight_precision"]; ok {
		r.precision = rp.str("weight_precision")
	}
	r.numGPUs, r.ulysses, r.ring = rp.whole("num_gpus", 1), rp.whole("ulysses_degree", 1), rp.whole("ring_degree", 1)
	r.batch, r.steps = rp.whole("batch_size", 1), rp.whole("inference_steps", 1)
	r.totalParams, r.activeParams = rp.num("total_params_billions"), rp.num("activated_params_billions")
	r.latency, r.power = rp.num("batch_latency_s"), rp.num("avg_power_watts")
	kind := "image"
	if video {
		kind = "video"
		r.frames, r.fps = rp.whole("num_frames", 1), rp.num("fps")
	}
	r.width, r.height = rp.whole(kind+"_width", 1), rp.whole(kind+"_height", 1)
	rp.num("throughput_" + kind + "s_per_sec")
	r.energy = rp.opt(r.energyKey())
	r.content = rowContent(rp.m)
	return r
}

// dExcluded returns why a diffusion row is left out, or "": its energy per
// image or video is missing, not finite or not positive, or a figure is
// beyond its bound.
func dExcluded(r *dRow) string {
	key, lo, hi := r.energyKey(), minJoulesPerImage, maxJoulesPerImage
	if r.video {
		lo, hi = minJoulesPerVideo, maxJoulesPerVideo
	}
	if r.energy == nil {
		return key + " is missing"
	}
	if e := *r.energy; !finite(e) || e <= 0 {
		return fmt.Sprintf("%s %s is not a finite positive number", key, rawText(e))
	}
	type bound struct {
		key    string
		x      float64
		lo, hi float64
	}
	bounds := []bound{{key, *r.energy, lo, hi}, {"batch_latency_s", r.latency, minBatchLatencyS, maxBatchLatencyS},
		{"avg_power_watts per GPU", r.power / float64(r.numGPUs), minWattsPerGPU, maxWattsPerGPU},
		{"total_params_billions", r.totalParams, minParamsB, maxParamsB}, {"activated_params_billions", r.activeParams, minParamsB, maxParamsB},
		{"width", float64(r.width), 8, maxPixels}, {"height", float64(r.height), 8, maxPixels},
		{"inference_steps", float64(r.steps), 1, maxSteps}, {"batch_size", float64(r.batch), 1, maxBatchSize}}
	if r.video {
		bounds = append(bounds, bound{"num_frames", float64(r.frames), 1, maxFrames}, bound{"fps", r.fps, 0.1, maxFPS})
	}
	for _, b := range bounds {
		if b.x < b.lo || b.x > b.hi {
			return fmt.Sprintf("%s %s is beyond the plausibility bounds %v to %v", b.key, rawText(b.x), b.lo, b.hi)
		}
	}
	if r.ulysses*r.ring != r.numGPUs {
		return fmt.Sprintf("ulysses_degree %d x ring_degree %d is not num_gpus %d", r.ulysses, r.ring, r.numGPUs)
	}
	return ""
}

// sortDiffusion returns one model's published diffusion rows as its file
// lists them (by GPU, GPU count, batch, Ulysses and ring degree, then
// upstream order), numbered, and the index row of each GPU, by GPU: the
// lowest unrounded energy per unit within the batch latency ceiling
// (ceilingS), then fewer GPUs, the smaller batch, the lower Ulysses
// degree, the lower ring degree, the lower repeat.
func sortDiffusion(slug string, ceilingS float64, rows []*dRow) (runs, best []*dRow) {
	runs = slices.Clone(rows)
	key := func(r *dRow) []int { return []int{r.numGPUs, r.batch, r.ulysses, r.ring} }
	slices.SortStableFunc(runs, func(a, b *dRow) int {
		return cmp.Or(strings.Compare(a.gpu, b.gpu), slices.Compare(key(a), key(b)))
	})
	for i, r := range runs {
		r.slug, r.repeat = slug, 1
		if i > 0 && runs[i-1].gpu == r.gpu && slices.Equal(key(runs[i-1]), key(r)) {
			r.repeat = runs[i-1].repeat + 1
		}
		if r.latency > ceilingS {
			continue
		}
		switch n := len(best); {
		case n == 0 || best[n-1].gpu != r.gpu:
			best = append(best, r)
		case *r.energy < *best[n-1].energy || *r.energy == *best[n-1].energy && slices.Compare(key(r), key(best[n-1])) < 0:
			best[n-1] = r // a tie of every key is the earlier repeat's
		}
	}
	return runs, best
}

// rowID is the row's row_id: SLUG/TASK/GPU/N/BATCH/ulysses-U-ring-R[/rREPEAT].
func (r *dRow) rowID() string {
	id := fmt.Sprintf("%s/%s/%s/%d/%d/ulysses-%d-ring-%d", r.slug, r.task, r.gpu, r.numGPUs, r.batch, r.ulysses, r.ring)
	if r.repeat > 1 {
		id += "/r" + strconv.Itoa(r.repeat)
	}
	return id
}

// dNode is a diffusion row as its model file prints it; known is false
// when its precision has no published name.
func dNode(r *dRow, ceilingS float64) (node *jnode, known bool) {
	n := jobj().set("gpu", jstr(r.gpu)).set("num_gpus", jint(r.numGPUs)).
		set("ulysses_degree", jint(r.ulysses)).set("ring_degree", jint(r.ring))
	if r.precision != "" {
		p, ok := precisions[r.precision]
		if !ok {
			return nil, false
		}
		n.set("precision", jstr(p))
	}
	n.set("batch_size", jint(r.batch)).set("width", jint(r.width)).set("height", jint(r.height)).set("inference_steps", jint(r.steps))
	unit := "image"
	if r.video {
		unit = "video"
		n.set("num_frames", jint(r.frames)).set("fps", jnum(floatText(r.fps))).
			set("video_seconds", jnum(roundedText(float64(r.frames)/r.fps, 2)))
	}
	return n.set("wh_per_"+unit, jnum(roundedText(*r.energy/3600, 4))).set("joules_per_"+unit, jnum(roundedText(*r.energy, 1))).
		set("batch_latency_s", jnum(roundedText(r.latency, 2))).set("gpu_power_watts_total", jnum(roundedInt(r.power))).
		set("under_latency_ceiling", jbool(r.latency <= ceilingS)).set("row_id", jstr(r.rowID())).set("repeat", jint(r.repeat)), true
}
