package validate

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// eachIndex calls fn(i) for every i in [0, n) on a worker per CPU and
// returns when all have returned; fn writes its result into slot i.
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
