package jsonvalid

import (
	"encoding/json"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/leadgreen/greentokens/internal/sample"
)

// BenchmarkValid measures Valid against jsontext's check and json.Valid
// on the sample's Text Conversation task file (MB/s).
func BenchmarkValid(b *testing.B) {
	data := sample.Read(b, "upstream", "leaderboard", sample.Version, "tasks", "lm-arena-chat.json")
	for _, c := range []struct {
		name  string
		valid func([]byte) bool
	}{
		{"Valid", Valid},
		{"jsontext", func(d []byte) bool { return jsontext.Value(d).IsValid() }},
		{"encoding-json", json.Valid},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !c.valid(data) {
					b.Fatal("invalid")
				}
			}
		})
	}
}
