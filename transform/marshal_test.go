package transform

import (
	"io"
	"math"
	"testing"

	"github.com/leadgreen/greentokens/format"
)

// TestMarshalEdgeValues: Marshal refuses what has no JSON number (an
// infinity, a NaN in index.json's lists) and writes null for a nil model.
func TestMarshalEdgeValues(t *testing.T) {
	if _, err := format.Marshal(&Model{ParamsB: format.Float(math.Inf(1))}); err == nil {
		t.Error("Marshal wrote an infinity")
	}
	if got, err := format.Marshal((*Model)(nil)); err != nil || string(got) != "null" {
		t.Errorf("a nil *Model: %q, %v; want null", got, err)
	}
	idx := &format.IndexFile{LoadCurves: []format.LoadCurve{{ThroughputRise: format.Float(math.NaN())}}}
	if err := idx.Encode(io.Discard); err == nil {
		t.Error("Encode wrote a NaN")
	}
}
