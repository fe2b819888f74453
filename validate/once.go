package validate

import "sync"

// onceEach computes a value once per key, however many goroutines ask for
// it at once: the checks share what Snap reads (a file's hash, a parsed
// task file) through it. Its zero value is ready.
type onceEach[V any] struct {
	mu sync.Mutex
	m  map[string]*onceValue[V]
}

type onceValue[V any] struct {
	once sync.Once
	v    V
}

// get returns key's value, calling compute the first time only; the other
// callers for that key wait for it.
func (o *onceEach[V]) get(key string, compute func() V) V {
	o.mu.Lock()
	if o.m == nil {
		o.m = map[string]*onceValue[V]{}
	}
	e := o.m[key]
	if e == nil {
		e = &onceValue[V]{}
		o.m[key] = e
	}
	o.mu.Unlock()
	e.once.Do(func() { e.v = compute() })
	return e.v
}
