//go:build crashtest

package build

import (
	"io"
	"strings"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/crashtest"
)

// crashSink, in the crash tests' build (the "crashtest" tag), is sink that
// kills the process with a model file half written when the
// crashtest.MidFile point is armed.
func crashSink(sink Sink) Sink {
	if !crashtest.Armed(crashtest.MidFile) {
		return sink
	}
	return halfSink{sink}
}

type halfSink struct{ Sink }

func (h halfSink) WriteFile(rel string, data []byte) (format.File, error) {
	if !strings.HasPrefix(rel, format.ModelsDir) {
		return h.Sink.WriteFile(rel, data)
	}
	return h.Sink.WriteStream(rel, func(w io.Writer) error {
		if _, err := w.Write(data[:len(data)/2]); err != nil {
			return err
		}
		crashtest.Kill(crashtest.MidFile)
		return nil
	})
}
