package format

import (
	"io"
	"math"
	"testing"
)

// TestMarshalEdgeValues: Marshal refuses what has no JSON number (an
// infinity, a NaN in index.json's lists) and writes null for a nil model.
func TestMarshalEdgeValues(t *testing.T) {
	if _, err := Marshal(&Model{ParamsB: Float(math.Inf(1))}); err == nil {
		t.Error("Marshal wrote an infinity")
	}
	if got, err := Marshal((*Model)(nil)); err != nil || string(got) != "null" {
		t.Errorf("a nil *Model: %q, %v; want null", got, err)
	}
	idx := &IndexFile{LoadCurves: []LoadCurve{{ThroughputRise: Float(math.NaN())}}}
	if err := idx.Encode(io.Discard); err == nil {
		t.Error("Encode wrote a NaN")
	}
}
