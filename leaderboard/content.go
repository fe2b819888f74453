package leaderboard

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
)

// contentKey identifies a row object by its content: two rows have the same
// key when they have the same fields with equal values, whatever the key
// order, white space or spelling of numbers (compared as float64) and
// strings.
func contentKey(m map[string]json.RawMessage) rowContent {
	var b [1024]byte
	buf := b[:0]
	for _, k := range sortedKeys(m) {
		buf = strconv.AppendInt(buf, int64(len(k)), 10)
		buf = appendCanonical(append(append(buf, ':'), k...), m[k])
	}
	return sha256.Sum256(buf)
}

// appendCanonical appends one spelling of a JSON value, which tells where
// it ends: a number as "d" and the 8 bytes of its float64 (equal float64s,
// equal shortest forms), a string as "s", its length, ":" and its decoded
// bytes, a literal as is, and an object or array re-encoded by
// encoding/json (keys sorted); anything else (a number out of float64's
// range) as "r", its length, ":" and its text.
func appendCanonical(buf []byte, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return buf
	}
	switch c := raw[0]; {
	case c == '-' || c >= '0' && c <= '9':
		if x, err := strconv.ParseFloat(string(raw), 64); err == nil {
			return binary.BigEndian.AppendUint64(append(buf, 'd'), math.Float64bits(x))
		}
	case c == '"':
		str := raw[1 : len(raw)-1]
		if bytes.IndexByte(str, '\\') >= 0 {
			var u string
			if json.Unmarshal(raw, &u) == nil {
				str = []byte(u)
			}
		}
		buf = strconv.AppendInt(append(buf, 's'), int64(len(str)), 10)
		return append(append(buf, ':'), str...)
	case c == '{' || c == '[':
		var v any
		if json.Unmarshal(raw, &v) == nil {
			if b, err := json.Marshal(v); err == nil {
				return append(buf, b...)
			}
		}
	}
	buf = strconv.AppendInt(append(buf, 'r'), int64(len(raw)), 10)
	return append(append(buf, ':'), raw...)
}
