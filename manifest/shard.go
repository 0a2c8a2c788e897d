package manifest

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// ParseShard reads "K/N" (1 <= K <= N).
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || ni < 1 || ki < 1 || ki > ni {
		return Shard{}, fmt.Errorf("shard %q: expected K/N with 1 <= K <= N, like 2/4", s)
	}
	return Shard{Index: ki, Count: ni}, nil
}

// ShardOf returns the shard (1 to count) that converts the inputs of the
// given group: the 64-bit FNV-1a hash of the key's bytes, modulo count,
// plus one. The key depends on one file's own path only, so adding or
// removing a file never moves another file to another shard.
func ShardOf(key string, count int) int {
	h := fnv.New64a()
	h.Write([]byte(key))
	return int(h.Sum64()%uint64(count)) + 1
}

// Holds reports whether shard s converts the group with the given key; a
// nil shard (an unsharded run) holds everything.
func (s *Shard) Holds(key string) bool {
	return s == nil || ShardOf(key, s.Count) == s.Index
}
