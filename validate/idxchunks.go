package validate

import (
	"bytes"
	"runtime"
	"sync"
	"sync/atomic"
)

// The index check prints index.json's lists, tens of megabytes at 10,000
// models, on a worker per CPU: each prints the entries of a chunk of
// models, and the chunks are compared with the published bytes in the
// models' order. (Printed on one goroutine, the lists were the check's
// last second, with the other checks done and one core idle.)

// idxChunkModels is the number of models whose entries a chunk holds (a
// variable for the tests).
var idxChunkModels = 128

// idxChunk is the printed entries of a chunk of models: each entry after
// ",\n    ", as it follows another in a list.
type idxChunk struct {
	buf *bytes.Buffer
	err error
}

// idxBufs are the buffers the index check prints into (chunks, and a
// model file's member to compare as text).
var idxBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// eachChunk prints the entries of list for the models of pl.ids, a chunk
// of models at a time on a worker per CPU, and hands each chunk to emit in
// the models' order. It stops at the first error, in that order, of a
// chunk (the error entries returns for the first of its models that fails)
// or of emit, and returns it. At most two chunks a worker are printed
// ahead of the one emit is waiting for.
func (pl *idxPlan) eachChunk(list idxList, emit func(text []byte) error) error {
	chunks := (len(pl.ids) + idxChunkModels - 1) / idxChunkModels
	if chunks == 0 {
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), chunks)
	slots := make([]chan idxChunk, chunks)
	for i := range slots {
		slots[i] = make(chan idxChunk, 1)
	}
	ahead := make(chan struct{}, 2*workers) // a token for each chunk taken and not yet emitted
	done := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				// The token is taken before the chunk: the chunk emit waits
				// for has always been taken by a worker that holds one.
				select {
				case ahead <- struct{}{}:
				case <-done:
					return
				}
				i := int(next.Add(1)) - 1
				if i >= chunks {
					return
				}
				slots[i] <- pl.printChunk(list, pl.ids[i*idxChunkModels:min((i+1)*idxChunkModels, len(pl.ids))])
			}
		})
	}
	var err error
	for i := range slots {
		c := <-slots[i]
		// The entries before a failing model are compared first, as when
		// they were printed in turn.
		err = emit(c.buf.Bytes())
		if err == nil {
			err = c.err
		}
		c.buf.Reset()
		idxBufs.Put(c.buf)
		if err != nil {
			break
		}
		<-ahead
	}
	close(done)
	wg.Wait()
	return err
}

// printChunk prints the entries of list for the models ids, up to the
// first that fails.
func (pl *idxPlan) printChunk(list idxList, ids []string) idxChunk {
	c := idxChunk{buf: idxBufs.Get().(*bytes.Buffer)}
	for _, id := range ids {
		es, err := pl.entries(list, pl.chat[id])
		if err != nil {
			c.err = err
			return c
		}
		for _, e := range es {
			c.buf.WriteString(",\n    ")
			idxWrite(c.buf, e, 2)
		}
	}
	return c
}
