package cache

import (
	"sync"
	"sync/atomic"
)

// Cache maps keys to values and holds at most a fixed number of them. A
// lookup takes no lock: virtual users read it on every sample. When an
// insert finds it full, the entries not read since the previous sweep are
// dropped (a second chance, as in the CLOCK algorithm); when every entry
// was read, a quarter of them go, so that a working set larger than the
// cache costs a sweep only every few inserts, never one per insert.
type Cache[K comparable, V any] struct {
	m   sync.Map // K → *entry[V]
	mu  sync.Mutex
	n   int // entries, guarded by mu
	max int
}

type entry[V any] struct {
	v    V
	read atomic.Bool
}

// New returns a cache of at most size entries (at least 1).
func New[K comparable, V any](size int) *Cache[K, V] {
	return &Cache[K, V]{max: max(size, 1)}
}

// Get returns the value for k.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	e, ok := c.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	en := e.(*entry[V])
	if !en.read.Load() {
		en.read.Store(true)
	}
	return en.v, true
}

// Put stores v for k, replacing what k held, making room when the cache
// is full.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m.Load(k); ok {
		c.m.Store(k, &entry[V]{v: v})
		return
	}
	if c.n >= c.max {
		c.sweep()
	}
	c.m.Store(k, &entry[V]{v: v})
	c.n++
}

// GetOrMake returns the value for k, made by mk and stored when absent. An
// error from mk is returned and nothing is stored.
func (c *Cache[K, V]) GetOrMake(k K, mk func(K) (V, error)) (V, error) {
	if v, ok := c.Get(k); ok {
		return v, nil
	}
	v, err := mk(k)
	if err != nil {
		return v, err
	}
	c.Put(k, v)
	return v, nil
}

// Len returns the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// sweep drops the entries not read since the last sweep and clears the
// mark of the others; if that frees less than a quarter of the cache, more
// go, in the map's own order. Called with mu held.
func (c *Cache[K, V]) sweep() {
	want := max(c.max/4, 1)
	dropped := 0
	c.m.Range(func(k, e any) bool {
		en := e.(*entry[V])
		if !en.read.Load() {
			c.m.Delete(k)
			dropped++
		} else {
			en.read.Store(false)
		}
		return true
	})
	if dropped < want {
		c.m.Range(func(k, _ any) bool {
			c.m.Delete(k)
			dropped++
			return dropped < want
		})
	}
	c.n -= dropped
}

// Func remembers what a function made of each key, failures included, so
// that a pattern or program used on every sample is made once; a key that
// failed fails again at once with the same error.
type Func[K comparable, V any] struct {
	c  *Cache[K, outcome[V]]
	mk func(K) (V, error)
}

type outcome[V any] struct {
	v   V
	err error
}

// NewFunc returns a Func of mk holding at most size keys.
func NewFunc[K comparable, V any](size int, mk func(K) (V, error)) *Func[K, V] {
	return &Func[K, V]{c: New[K, outcome[V]](size), mk: mk}
}

// Get returns mk(k), made on the first call for k.
func (f *Func[K, V]) Get(k K) (V, error) {
	if o, ok := f.c.Get(k); ok {
		return o.v, o.err
	}
	v, err := f.mk(k)
	f.c.Put(k, outcome[V]{v, err})
	return v, err
}
