package leaderboard

import (
	"fmt"
	"math"
)

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
		if err := within(FieldEnergyToken, *e, "J", MinJoulesPerToken, MaxJoulesPerToken); err != nil {
			return err
		}
	}
	if w := r.Power / float64(r.NumGPUs); w < MinWattsPerGPU || w > MaxWattsPerGPU {
		side, b := "above", MaxWattsPerGPU
		if w < MinWattsPerGPU {
			side, b = "below", MinWattsPerGPU
		}
		return fmt.Errorf("field %q: %v W is %v W per GPU (num_gpus %d), %s the %v W per GPU plausibility bound", FieldPower, r.Power, w, r.NumGPUs, side, b)
	}
	if err := within(FieldThroughput, r.Throughput, "tokens/s", MinTokensPerSecond, MaxTokensPerSecond); err != nil {
		return err
	}
	itl := []struct {
		key string
		v   float64
	}{{FieldMedianITL, r.MedianITL}, {FieldP90ITL, r.P90ITL}, {FieldP95ITL, r.P95ITL}, {FieldP99ITL, r.P99ITL}}
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
		if err := within(FieldOutputLen, *r.OutputLen, "tokens", MinOutputTokens, MaxOutputTokens); err != nil {
			return err
		}
	case r.EnergyPerToken != nil && *r.EnergyPerToken > 0 && r.EnergyPerRequest != nil:
		if n := *r.EnergyPerRequest / *r.EnergyPerToken; n < MinOutputTokens || n > MaxOutputTokens {
			return fmt.Errorf("field %q: %v J per request over %v J per token gives an average output length of %v tokens, outside the plausibility bounds %v to %v",
				FieldEnergyRequest, *r.EnergyPerRequest, *r.EnergyPerToken, n, MinOutputTokens, MaxOutputTokens)
		}
	}
	for _, p := range []struct {
		key string
		v   float64
	}{{FieldTotalParams, r.TotalParams}, {FieldActiveParams, r.ActiveParams}} {
		if err := within(p.key, p.v, "billion", MinParamsB, MaxParamsB); err != nil {
			return err
		}
	}
	if err := within(FieldAvgBatch, r.AvgBatch, "", 0, MaxRunningBatch); err != nil {
		return err
	}
	if r.AvgBatch > float64(r.MaxNumSeqs) {
		return fmt.Errorf("field %q: %v is above max_num_seqs %d, the cap on the running batch", FieldAvgBatch, r.AvgBatch, r.MaxNumSeqs)
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
