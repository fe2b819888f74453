package transform

import (
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"
)

// objectMembers splits raw, one valid JSON value, into its members when it
// is an object: name -> the value's bytes as written (a slice of raw).
// It gives what json.Unmarshal into a map[string]json.RawMessage gives, in
// one pass without reflection or a decoder (a task file's rows are tens of
// thousands, each already read whole by readRows' decoder, which checked
// its syntax); ok is false when raw is not an object. A name given twice
// keeps its last value, as json.Unmarshal does (ParseTask refuses such
// files first, but upstream has written them: an image task's row repeats
// "weight_precision"). Valid JSON is the caller's promise: on anything
// else the result is undefined, but it returns (FuzzObjectMembersBounded).
func objectMembers(raw []byte) (m map[string]json.RawMessage, ok bool) {
	i := skipWhite(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	m = make(map[string]json.RawMessage, 32)
	if i = skipWhite(raw, i+1); i < len(raw) && raw[i] == '}' {
		return m, true
	}
	for i < len(raw) && raw[i] == '"' {
		end := stringEnd(raw, i)
		name := memberName(raw[i:end])
		if i = skipWhite(raw, end); i >= len(raw) || raw[i] != ':' {
			return nil, false // not valid JSON
		}
		if i = skipWhite(raw, i+1); i >= len(raw) {
			return nil, false
		}
		end = valueEnd(raw, i)
		m[name] = json.RawMessage(raw[i:end:end])
		if i = skipWhite(raw, end); i < len(raw) && raw[i] == '}' {
			return m, true
		}
		i = skipWhite(raw, i+1) // ','
	}
	return nil, false
}

// knownNames are the row fields parseRow reads: the same string for each
// row's name, not a new one.
var knownNames = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{fModelID, fNickname, fGPU, fNumGPUs, fTP, fDP, fEP, fPrecision, fMaxNumSeqs, fAvgBatch,
		fEnergyToken, fEnergyRequest, fOutputLen, fMedianITL, fP90ITL, fP95ITL, fP99ITL, fThroughput, fPower,
		fTotalParams, fActiveParams, fArchitecture, fSteadySeconds} {
		m[k] = k
	}
	return m
}()

// memberName decodes a name's string literal (quotes included).
func memberName(lit []byte) string {
	if len(lit) < 2 { // cut short: not valid JSON, which the caller promised
		return ""
	}
	inner := lit[1 : len(lit)-1]
	for _, c := range inner {
		if c == '\\' {
			name, _ := jsontext.AppendUnquote(nil, lit)
			return string(name)
		}
	}
	if k, ok := knownNames[string(inner)]; ok {
		return k
	}
	return string(inner)
}

func skipWhite(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// stringEnd returns the index after the string literal at b[i:] (len(b)
// when it does not end): scanString's end.
func stringEnd(b []byte, i int) int {
	if end, _ := scanString(b, i); end >= 0 {
		return end
	}
	return len(b)
}

// valueEnd returns the index after the JSON value at b[i:].
func valueEnd(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
		case '{', '[':
			depth++
			i++
		case '}', ']':
			depth--
			i++
		default:
			i++
			if depth == 0 { // a number or a literal: up to what ends it
				for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' && b[i] != '\r' && b[i] != '\t' {
					i++
				}
			}
		}
		if depth == 0 {
			return i
		}
	}
	return len(b)
}
