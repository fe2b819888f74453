package validate

// Values at placed sites, taken raw.
//
// Most values at a snapshot's sites were checked before: each best
// configuration is one of its model file's configurations, and index.json
// repeats the model files' configurations and its own points. The fast
// pass (checkonce.go) used to decode each of them into a tree, only to
// write its canonical form and find it among the values already checked.
//
// At a placed site (site.placed), the instance decoder does not decode the
// value: it keeps its text (rawSite) and leaves a null in the tree, which
// the schema with its sites true accepts there, and which no other keyword
// sees (wayKeys). The fast pass then looks the text up, its white space
// outside strings left out (appendCompact): two texts equal but for that
// white space are the same JSON value. Only a text not found is decoded,
// and checked as a site's value always was (its canonical form looked up,
// else the site's schema applied); once valid, both forms are kept.

import "crypto/sha256"

// siteNode is a step of the walk from a file's root value to the values
// at its placed sites: the members (properties, additionalProperties) and
// elements (items) of the value here that lead on.
type siteNode struct {
	props  map[string]*siteNode // properties[name]
	addl   *siteNode            // additionalProperties: names not in except
	except map[string]bool
	items  *siteNode
	site   *site // the value here is a placed site's
}

// placedTree returns the walk to the placed sites of sites, or nil when
// none is placed.
func placedTree(sites []site) *siteNode {
	var root *siteNode
	for i := range sites {
		st := &sites[i]
		if !st.placed {
			continue
		}
		if root == nil {
			root = &siteNode{}
		}
		n := root
		for _, step := range st.steps {
			switch step.kind {
			case 'p':
				if n.props == nil {
					n.props = map[string]*siteNode{}
				}
				if n.props[step.name] == nil {
					n.props[step.name] = &siteNode{}
				}
				n = n.props[step.name]
			case 'a':
				if n.addl == nil {
					n.addl, n.except = &siteNode{}, step.except
				}
				n = n.addl
			case 'i':
				if n.items == nil {
					n.items = &siteNode{}
				}
				n = n.items
			}
		}
		n.site = st
	}
	return root
}

// member returns the node of the member named k of an object at n (nil:
// none leads to a placed site).
func (n *siteNode) member(k string) *siteNode {
	if n == nil {
		return nil
	}
	if m, ok := n.props[k]; ok {
		return m
	}
	if n.addl != nil && !n.except[k] {
		return n.addl
	}
	return nil
}

// element returns the node of the elements of a list at n.
func (n *siteNode) element() *siteNode {
	if n == nil {
		return nil
	}
	return n.items
}

// rawSite is the text of a value at a placed site.
type rawSite struct {
	site *site
	text string
}

// appendCompact appends text, valid JSON, to b without its white space
// outside strings (outside strings, valid JSON has no byte at or below ' '
// but white space).
func appendCompact(b []byte, text string) []byte {
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c <= ' ':
			i++
		case c == '"':
			lit, end := stringLiteral(text, i)
			b = append(b, lit...)
			i = end
		default:
			j := i + 1
			for j < len(text) && text[j] > ' ' && text[j] != '"' {
				j++
			}
			b = append(b, text[i:j]...)
			i = j
		}
	}
	return b
}

// placedSites checks the values the decoder took raw since it was last
// asked (see this file's first comment), after the rest of the part
// being checked (the values before a split list are taken with its first
// entry); it lets them go either way. Each value is checked against its
// site's schema whatever the rest holds, so the order changes no verdict.
func (c *onceParts) placedSites() {
	raws := c.dec.raws
	defer func() { clear(raws); c.dec.raws = raws[:0] }()
	c.checkRaws(raws)
}

// checkRaws checks values taken raw, each unless its text was found valid
// at a site with the same schema before.
func (c *onceParts) checkRaws(raws []rawSite) {
	for _, r := range raws {
		if !c.valid {
			return
		}
		if len(r.site.alt) > 0 && r.text[0] == '{' {
			r.site = &r.site.alt[0] // as its objectBranch decides
		}
		if r.site.leaf != nil && scalar(r.text) {
			c.checkScalar(r)
			continue
		}
		c.buf = appendCompact(append(append(c.buf[:0], r.site.key[:]...), 'R'), r.text)
		key := sha256.Sum256(c.buf)
		if c.seen.has(key) {
			continue
		}
		switch {
		case r.site.leaf != nil: // its text is as good a key as its canonical form
			x, _ := c.plain.value(r.text, 0)
			c.valid = r.site.sch.Validate(x) == nil
		case r.site.innerTree != nil:
			c.checkLeaves(r)
		default:
			x, _ := c.plain.value(r.text, 0)
			c.check(r.site, x)
		}
		if !c.valid {
			return
		}
		c.seen.add(key)
	}
}

// checkLeaves checks r, a value at a site with leaves (leaves.go): the
// value with its leaves left null against the site's shell, then each
// leaf's value.
func (c *onceParts) checkLeaves(r rawSite) {
	if c.inner == nil {
		c.inner = getDecoder()
	}
	x, _ := c.inner.valueAt(r.text, 0, r.site.innerTree)
	leaves := c.inner.raws
	defer func() { clear(leaves); c.inner.raws = leaves[:0] }()
	if !c.check(r.site.shell, x) {
		return
	}
	c.checkRaws(leaves) // leaves have no leaves: c.inner is not used again
}

// checkScalar checks r, a scalar value at a leaf, unless the leaf's
// scalarCheck accepts it or its text was found valid at a leaf with the
// same schema before.
func (c *onceParts) checkScalar(r rawSite) {
	if r.site.scalar != nil && r.site.scalar.accepts(r.text) {
		return
	}
	texts := c.seen.texts(r.site.key)
	if texts.has(r.text) {
		return
	}
	x, _ := c.plain.value(r.text, 0)
	if c.valid = r.site.sch.Validate(x) == nil; c.valid {
		texts.add(r.text)
	}
}
