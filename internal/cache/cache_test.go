package cache

import (
	"errors"
	"strconv"
	"sync"
	"testing"
)

func TestCacheKeepsWhatIsRead(t *testing.T) {
	c := New[string, int](4)
	for i := range 4 {
		c.Put(strconv.Itoa(i), i)
	}
	c.Get("0")
	c.Get("2")
	c.Put("4", 4) // full: 1 and 3 were never read and go
	for _, tc := range []struct {
		key  string
		want bool
	}{{"0", true}, {"1", false}, {"2", true}, {"3", false}, {"4", true}} {
		if _, ok := c.Get(tc.key); ok != tc.want {
			t.Errorf("Get(%s) present = %v, want %v", tc.key, ok, tc.want)
		}
	}
	if n := c.Len(); n != 3 {
		t.Errorf("Len = %d, want 3", n)
	}
}

func TestCacheNeverPassesItsSize(t *testing.T) {
	tests := []struct{ size, keys int }{{1, 10}, {4, 100}, {64, 10000}}
	for _, tc := range tests {
		c := New[int, int](tc.size)
		for k := range tc.keys {
			c.Put(k, k)
			c.Get(k) // every entry read: sweeps must still make room
			if n := c.Len(); n > tc.size {
				t.Fatalf("size %d: %d entries after %d inserts", tc.size, n, k+1)
			}
			if v, ok := c.Get(k); !ok || v != k {
				t.Fatalf("size %d: the key just put is gone (%d, %v)", tc.size, v, ok)
			}
		}
	}
}

func TestCachePutReplaces(t *testing.T) {
	c := New[string, string](2)
	c.Put("a", "first")
	c.Put("a", "second")
	if v, _ := c.Get("a"); v != "second" {
		t.Errorf("Get(a) = %q, want second", v)
	}
	if n := c.Len(); n != 1 {
		t.Errorf("Len = %d, want 1", n)
	}
}

func TestFuncRemembersFailures(t *testing.T) {
	calls := map[string]int{}
	f := NewFunc(4, func(k string) (int, error) {
		calls[k]++
		if k == "" {
			return 0, errors.New("empty")
		}
		return len(k), nil
	})
	for range 3 {
		if v, err := f.Get("four"); v != 4 || err != nil {
			t.Fatalf("Get(four) = %d, %v", v, err)
		}
		if _, err := f.Get(""); err == nil {
			t.Fatal("Get(\"\"): no error")
		}
	}
	if calls["four"] != 1 || calls[""] != 1 {
		t.Errorf("made %v, want each key once", calls)
	}
}

func TestGetOrMake(t *testing.T) {
	c := New[string, int](8)
	calls := 0
	mk := func(k string) (int, error) {
		calls++
		if k == "bad" {
			return 0, errors.New("bad key")
		}
		return len(k), nil
	}
	for range 3 {
		if v, err := c.GetOrMake("abc", mk); v != 3 || err != nil {
			t.Fatalf("GetOrMake(abc) = %d, %v", v, err)
		}
	}
	if calls != 1 {
		t.Errorf("mk called %d times for one key, want 1", calls)
	}
	if _, err := c.GetOrMake("bad", mk); err == nil {
		t.Error("GetOrMake(bad): no error")
	}
	if _, ok := c.Get("bad"); ok {
		t.Error("a failed make was stored")
	}
}

func TestCacheConcurrentUse(t *testing.T) {
	c := New[int, int](16)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := (g*7 + i) % 40
				if v, ok := c.Get(k); ok && v != k*k {
					t.Errorf("Get(%d) = %d", k, v)
					return
				}
				c.Put(k, k*k)
			}
		}()
	}
	wg.Wait()
	if n := c.Len(); n > 16 {
		t.Errorf("Len = %d after concurrent use, want at most 16", n)
	}
}

func BenchmarkCacheGet(b *testing.B) {
	c := New[string, int](1024)
	keys := make([]string, 512)
	for i := range keys {
		keys[i] = "pattern-" + strconv.Itoa(i)
		c.Put(keys[i], i)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			c.Get(keys[i%len(keys)])
			i++
		}
	})
}
