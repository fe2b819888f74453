package leaderboard

import "encoding/json"

// objectMembers splits raw, one valid JSON value, into its members when it
// is an object: name -> the value's bytes as written. ok is false when raw
// is not an object. A name given twice keeps its last value (ParseTask
// refuses such files first, but upstream has written them: an image task's
// row repeats "weight_precision").
func objectMembers(raw []byte) (m map[string]json.RawMessage, ok bool) {
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return nil, false
	}
	return m, true
}
