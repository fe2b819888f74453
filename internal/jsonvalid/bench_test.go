package jsonvalid

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// BenchmarkValid measures Valid against jsontext's check and json.Valid
// on the largest shared Text Conversation task file (MB/s).
func BenchmarkValid(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "upstream", "leaderboard", "*", "tasks", "lm-arena-chat.json"))
	var data []byte
	for _, f := range files {
		if d, err := os.ReadFile(f); err == nil && len(d) > len(data) {
			data = d
		}
	}
	if len(data) == 0 {
		b.Fatal("no shared task file")
	}
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
