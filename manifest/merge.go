package manifest

import (
	"fmt"
	"slices"
)

// Merge joins the manifests of the shards of one conversion into the
// manifest one unsharded run would have written. names label the
// manifests in errors (their file names).
//
// All must come from the same bake with the same options. Either every
// manifest is a shard, and then all N shards of the same count are there
// exactly once (a missing shard is an error, not a smaller result), or
// none is (plain runs over different inputs, joined). No input or output
// may appear twice.
func Merge(names []string, ms []*Manifest) (*Manifest, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("no manifests to merge")
	}
	first := ms[0]
	out := &Manifest{Schema: Schema, Bake: first.Bake, Options: first.Options}
	sharded := first.Shard != nil
	seen := map[int]string{}
	inputOf := map[string]string{}
	outputOf := map[string]string{}
	for i, m := range ms {
		name := names[i]
		if m.Bake != first.Bake {
			return nil, fmt.Errorf("%s was written by bake %s, %s by bake %s", name, m.Bake, names[0], first.Bake)
		}
		if m.Options.SHA256 != first.Options.SHA256 {
			return nil, fmt.Errorf("%s and %s were written with different options: %v", names[0], name, first.Options.Changed(m.Options))
		}
		if (m.Shard != nil) != sharded {
			return nil, fmt.Errorf("%s and %s: one is a shard's manifest and the other is not", names[0], name)
		}
		if sharded {
			if m.Shard.Count != first.Shard.Count {
				return nil, fmt.Errorf("%s is shard %s, %s is shard %s: different shard counts", name, m.Shard, names[0], first.Shard)
			}
			if prev, dup := seen[m.Shard.Index]; dup {
				return nil, fmt.Errorf("%s and %s are both shard %s", prev, name, m.Shard)
			}
			seen[m.Shard.Index] = name
		}
		for _, in := range m.Inputs {
			if prev, dup := inputOf[in.Path]; dup {
				return nil, fmt.Errorf("input %s is in both %s and %s", in.Path, prev, name)
			}
			inputOf[in.Path] = name
			for _, o := range in.Outputs {
				if prev, dup := outputOf[o.Path]; dup {
					return nil, fmt.Errorf("output %s is in both %s and %s", o.Path, prev, name)
				}
				outputOf[o.Path] = name
			}
			in.Outputs = slices.Clone(in.Outputs)
			in.Uses = slices.Clone(in.Uses)
			out.Inputs = append(out.Inputs, in)
		}
		for _, o := range m.Orphans {
			if prev, dup := outputOf[o.Path]; dup {
				return nil, fmt.Errorf("output %s is in both %s and %s", o.Path, prev, name)
			}
			outputOf[o.Path] = name
			out.Orphans = append(out.Orphans, o)
		}
	}
	if sharded {
		var missing []int
		for k := 1; k <= first.Shard.Count; k++ {
			if _, ok := seen[k]; !ok {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("shards %v of %d are missing: merge every shard's manifest", missing, first.Shard.Count)
		}
	}
	out.sort()
	if err := out.Validate(); err != nil {
		return nil, err
	}
	return out, nil
}
