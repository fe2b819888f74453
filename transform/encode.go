package transform

// A hand-written encoder for the files a build writes by the thousand: the
// model files and the elements of index.json's four lists. It appends the
// published, indented bytes directly, with no reflection and no second
// pass to indent them, and writes exactly what encoding/json (without HTML
// escaping) followed by appendIndented writes: TestEncoderAsEncodingJSON
// compares the two on every shared leaderboard version and on edge values,
// and FuzzAppendString compares the string escaping. Any other type, and
// a nil *Model, stays on the encoding/json path (marshalStd).

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/leadgreen/greentokens/transform/jsonnum"
)

// appendEncoded appends the published bytes of v, indented as Marshal
// indents them with every line after the first starting with prefix, if v
// is one of the types the encoder writes; ok is false, and dst returned
// unchanged, for any other type.
func appendEncoded(dst []byte, v any, prefix string) (out []byte, ok bool, err error) {
	e := encoder{buf: dst, prefix: prefix}
	switch v := v.(type) {
	case *Model:
		if v == nil {
			return dst, false, nil
		}
		e.model(v)
	case Model:
		e.model(&v)
	case *IndexEntry:
		e.indexEntry(v)
	case *GPUComparison:
		e.gpuComparison(v)
	case *TaskComparison:
		e.taskComparison(v)
	case *LoadCurve:
		e.loadCurve(v)
	default:
		return dst, false, nil
	}
	if e.err != nil {
		return dst, true, e.err
	}
	return e.buf, true, nil
}

// encoder appends indented JSON to buf. Its methods record the first
// error in err and carry on; the caller checks err once at the end.
type encoder struct {
	buf    []byte
	prefix string // what every line but the first starts with
	depth  int    // open objects and lists
	first  bool   // nothing yet in the innermost open object or list
	err    error
}

// spaces indents a line; a deeper one takes it more than once.
const spaces = "                                "

// newline starts a line at the current depth.
func (e *encoder) newline() { e.buf = e.appendNewline(e.buf) }

// appendNewline is newline on a local slice: the methods below build on
// one and store it in e.buf once, for a store through a pointer costs a
// write barrier while the garbage collector runs.
func (e *encoder) appendNewline(b []byte) []byte {
	b = append(b, '\n')
	b = append(b, e.prefix...)
	for n := 2 * e.depth; n > 0; n -= len(spaces) {
		b = append(b, spaces[:min(n, len(spaces))]...)
	}
	return b
}

// open opens an object ('{') or a list ('[').
func (e *encoder) open(c byte) {
	e.buf = append(e.buf, c)
	e.depth++
	e.first = true
}

// close closes what open opened: an empty one stays on its line ({}, []).
func (e *encoder) close(c byte) {
	e.depth--
	b := e.buf
	if !e.first {
		b = e.appendNewline(b)
	}
	e.buf = append(b, c)
	e.first = false
}

// appendNext starts a member or an element on a line of its own.
func (e *encoder) appendNext(b []byte) []byte {
	if !e.first {
		b = append(b, ',')
	}
	e.first = false
	return e.appendNewline(b)
}

func (e *encoder) next() { e.buf = e.appendNext(e.buf) }

// appendKey starts a member named by a struct tag: plain ASCII, nothing
// to escape.
func (e *encoder) appendKey(b []byte, name string) []byte {
	b = append(e.appendNext(b), '"')
	b = append(b, name...)
	return append(b, `": `...)
}

func (e *encoder) key(name string) { e.buf = e.appendKey(e.buf, name) }

func (e *encoder) str(name, s string) { e.buf = appendString(e.appendKey(e.buf, name), s) }

func (e *encoder) int(name string, n int64) {
	e.buf = strconv.AppendInt(e.appendKey(e.buf, name), n, 10)
}

func (e *encoder) bool(name string, v bool) {
	e.buf = strconv.AppendBool(e.appendKey(e.buf, name), v)
}

// float writes a jsonnum.Float as its MarshalJSON does.
func (e *encoder) float(name string, f jsonnum.Float) {
	b, err := jsonnum.Append(e.appendKey(e.buf, name), float64(f))
	if err != nil && e.err == nil {
		e.err = fmt.Errorf("encoding %q: %w", name, err)
	}
	e.buf = b
}

// null writes null for a nil slice, map or pointer and reports whether it did.
func (e *encoder) null(isNil bool) bool {
	if isNil {
		e.buf = append(e.buf, "null"...)
	}
	return isNil
}

// openList starts a list member and reports whether it has elements to
// write: a nil list is null, as encoding/json writes it. (A generic list
// with a function per element would move the encoder to the heap, and
// every append would pay a write barrier.)
func (e *encoder) openList(name string, isNil bool) bool {
	e.key(name)
	if e.null(isNil) {
		return false
	}
	e.open('[')
	return true
}

func (e *encoder) strings(name string, l []string) {
	if e.openList(name, l == nil) {
		for _, s := range l {
			e.next()
			e.buf = appendString(e.buf, s)
		}
		e.close(']')
	}
}

func (e *encoder) configs(name string, l []Config) {
	if e.openList(name, l == nil) {
		for i := range l {
			e.next()
			e.config(&l[i])
		}
		e.close(']')
	}
}

// configMap writes a best map: null when nil, keys sorted by their bytes
// (encoding/json's order for string keys).
func (e *encoder) configMap(name string, m map[string]Config) {
	e.key(name)
	if e.null(m == nil) {
		return
	}
	e.open('{')
	for _, k := range sortedKeys(m) {
		e.next()
		e.buf = appendString(e.buf, k)
		e.buf = append(e.buf, ": "...)
		c := m[k]
		e.config(&c)
	}
	e.close('}')
}

func (e *encoder) model(m *Model) {
	e.open('{')
	e.str("version", m.Version)
	e.str("updated", m.Updated)
	e.str("data_version", m.DataVersion)
	e.str("unit", m.Unit)
	e.int("itl_deadline_ms", int64(m.ITLDeadlineMS))
	e.key("source")
	e.source(&m.Source)
	e.str("caveat", m.Caveat)
	e.str("boundary", m.Boundary)
	e.str("slug", m.Slug)
	e.str("name", m.Name)
	e.str("model_id", m.ModelID)
	e.float("params_b", m.ParamsB)
	e.float("active_params_b", m.ActiveParamsB)
	e.str("architecture", m.Architecture)
	e.strings("gpus", m.GPUs)
	e.configs("configurations", m.Configurations)
	e.configMap("best", m.Best)
	e.close('}')
}

func (e *encoder) source(s *Source) {
	e.open('{')
	e.str("name", s.Name)
	e.str("publisher", s.Publisher)
	e.str("url", s.URL)
	e.str("data_url", s.DataURL)
	e.str("version", s.Version)
	e.str("released", s.Released)
	e.str("compiled", s.Compiled)
	e.str("compiled_evidence", s.CompiledEvidence)
	e.str("retrieved", s.Retrieved)
	e.str("licence", s.Licence)
	e.strings("licence_evidence", s.LicenceEvidence)
	e.str("workload", s.Workload)
	e.str("method", s.Method)
	e.str("selection", s.Selection)
	e.str("cite", s.Cite)
	e.str("cite_url", s.CiteURL)
	e.str("used_for", s.UsedFor)
	e.str("configurations", s.Configurations)
	e.close('}')
}

func (e *encoder) config(c *Config) {
	e.open('{')
	e.str("gpu", c.GPU)
	e.int("num_gpus", int64(c.NumGPUs))
	e.int("tensor_parallel", int64(c.TensorParallel))
	e.int("data_parallel", int64(c.DataParallel))
	e.int("expert_parallel", int64(c.ExpertParallel))
	e.str("precision", c.Precision)
	e.int("max_num_seqs", int64(c.MaxNumSeqs))
	e.float("avg_requests_in_flight", c.AvgRequestsInFlight)
	e.float("wh_per_million_output_tokens", c.WhPerMillion)
	e.float("joules_per_output_token", c.JoulesPerToken)
	e.float("median_itl_ms", c.MedianITL)
	e.float("p90_itl_ms", c.P90ITL)
	e.float("p99_itl_ms", c.P99ITL)
	e.float("tokens_per_second", c.TokensPerSecond)
	e.int("gpu_power_watts_total", c.GPUPowerWatts)
	e.int("avg_output_tokens", c.AvgOutputTokens)
	e.bool("under_itl_deadline", c.UnderITLDeadline)
	e.float("avg_running_batch", c.AvgRunningBatch)
	e.float("p95_itl_ms", c.P95ITL)
	e.str("row_id", c.RowID)
	e.int("repeat", int64(c.Repeat))
	e.close('}')
}

func (e *encoder) indexEntry(x *IndexEntry) {
	e.open('{')
	e.str("slug", x.Slug)
	e.str("name", x.Name)
	e.str("model_id", x.ModelID)
	e.float("params_b", x.ParamsB)
	e.float("active_params_b", x.ActiveParamsB)
	e.str("architecture", x.Architecture)
	e.int("configurations", int64(x.Configurations))
	e.strings("gpus", x.GPUs)
	e.str("file", x.File)
	e.configMap("best", x.Best)
	e.close('}')
}

// rowRef writes a RowRef as an object (or null for a nil pointer).
func (e *encoder) rowRef(name string, r *RowRef) {
	e.key(name)
	if e.null(r == nil) {
		return
	}
	e.open('{')
	e.rowRefFields(r)
	e.close('}')
}

// rowRefFields writes RowRef's members, which a TaskRow embeds: encoding/json
// lifts an embedded struct's fields into the outer object, in their place.
func (e *encoder) rowRefFields(r *RowRef) {
	e.str("row_id", r.RowID)
	e.int("num_gpus", int64(r.NumGPUs))
	e.int("max_num_seqs", int64(r.MaxNumSeqs))
	e.float("avg_running_batch", r.AvgRunningBatch)
	e.float("wh_per_million_output_tokens", r.WhPerMillion)
	e.float("joules_per_output_token", r.JoulesPerToken)
	e.float("median_itl_ms", r.MedianITL)
	e.float("tokens_per_second", r.TokensPerSecond)
	e.int("gpu_power_watts_total", r.GPUPowerWatts)
	e.int("avg_output_tokens", r.AvgOutputTokens)
}

func (e *encoder) taskRow(name string, r *TaskRow) {
	e.key(name)
	e.open('{')
	e.rowRefFields(&r.RowRef)
	e.float("joules_per_response", r.JoulesPerResponse)
	e.close('}')
}

func (e *encoder) gpuComparison(c *GPUComparison) {
	e.open('{')
	e.str("slug", c.Slug)
	e.rowRef("h100", &c.H100)
	e.rowRef("b200", &c.B200)
	e.float("energy_per_token_ratio", c.EnergyPerTokenRatio)
	e.close('}')
}

func (e *encoder) taskComparison(c *TaskComparison) {
	e.open('{')
	e.str("slug", c.Slug)
	e.str("gpu", c.GPU)
	e.taskRow("text_conversation", &c.TextConversation)
	e.taskRow("problem_solving", &c.ProblemSolving)
	e.float("energy_per_response_ratio", c.EnergyPerResponseRatio)
	e.float("energy_per_token_ratio", c.EnergyPerTokenRatio)
	e.close('}')
}

func (e *encoder) loadCurve(c *LoadCurve) {
	e.open('{')
	e.str("slug", c.Slug)
	e.str("gpu", c.GPU)
	e.int("num_gpus", int64(c.NumGPUs))
	e.rowRef("from", &c.From)
	e.rowRef("to", &c.To)
	e.float("energy_per_token_fall", c.EnergyPerTokenFall)
	e.int("gpu_power_rise_percent", c.GPUPowerRisePercent)
	e.float("throughput_rise", c.ThroughputRise)
	e.float("max_median_itl_ms", c.MaxMedianITL)
	e.str("max_median_itl_row_id", c.MaxMedianITLRowID)
	e.rowRef("past", c.Past)
	e.close('}')
}

// hexDigits are the digits of a \u00XX escape, lower case as encoding/json
// writes them.
const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json writes one
// without HTML escaping: \" \\ \b \f \n \r \t, \u00XX for the other
// control characters, U+2028 and U+2029 escaped, each byte that is not
// part of valid UTF-8 replaced by \ufffd, and everything else as it is.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0 // s[start:i] is yet to be copied
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, `\b`...)
			case '\f':
				dst = append(dst, `\f`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\t':
				dst = append(dst, `\t`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
