package validate

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// eachIndex calls fn(i) for every i in [0, n) on a worker per CPU (at most
// n), and returns when all calls have returned. fn writes its result into
// slot i of a slice of the caller's, so results keep their order whatever
// the order the calls end in.
func eachIndex(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}
