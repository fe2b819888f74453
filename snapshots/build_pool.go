package snapshots

import (
	"runtime"
	"sync"
)

// filePool writes the files of a stage on a worker per CPU: the model
// files and the pages, which are independent of each other. One goroutine
// submits the jobs, in the order of the files; a job returns the File it
// wrote. wait returns the Files in that order, or the error of the
// earliest job that failed, whatever the order they ran in: the build's
// output and its errors do not depend on the scheduling. At most twice as
// many jobs as workers wait in the queue, so the memory they hold (a model,
// a page) stays bounded.
type filePool struct {
	jobs chan poolJob
	out  []*File
	wg   sync.WaitGroup

	mu    sync.Mutex
	err   error
	errAt int // the index of the job that failed with err
}

type poolJob struct {
	i   int
	out *File
	run func() (File, error)
}

func newFilePool() *filePool {
	n := runtime.GOMAXPROCS(0)
	p := &filePool{jobs: make(chan poolJob, 2*n)}
	for range n {
		p.wg.Go(p.work)
	}
	return p
}

func (p *filePool) work() {
	for j := range p.jobs {
		if p.failedBefore(j.i) {
			continue // a file before this one failed: the build fails with it
		}
		f, err := j.run()
		if err != nil {
			p.mu.Lock()
			if p.err == nil || j.i < p.errAt {
				p.err, p.errAt = err, j.i
			}
			p.mu.Unlock()
			continue
		}
		*j.out = f
	}
}

// failedBefore reports whether a job before the i-th has failed.
func (p *filePool) failedBefore(i int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err != nil && p.errAt < i
}

// submit queues the next job; it returns false, and queues nothing, once a
// job has failed.
func (p *filePool) submit(run func() (File, error)) bool {
	if p.failedBefore(len(p.out)) {
		return false
	}
	out := new(File)
	p.out = append(p.out, out)
	p.jobs <- poolJob{i: len(p.out) - 1, out: out, run: run}
	return true
}

// wait waits for every queued job and returns the Files in the order they
// were submitted, or the earliest job's error.
func (p *filePool) wait() ([]File, error) {
	close(p.jobs)
	p.wg.Wait()
	if p.err != nil {
		return nil, p.err
	}
	files := make([]File, len(p.out))
	for i, f := range p.out {
		files[i] = *f
	}
	return files, nil
}
