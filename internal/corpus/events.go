package corpus

import "fmt"

// Events returns n server-sent events (text/event-stream) of about 100
// bytes each: JSON chat messages whose users, words and times vary from one
// event to the next, as a notification or chat stream's do. The same n
// gives the same events.
func Events(n int) [][]byte {
	users := []string{"alice", "bob", "carol", "dave", "erin"}
	words := []string{"deploy", "finished", "the", "build", "is", "green", "review", "please", "merged", "tests", "failing", "on", "main"}
	out := make([][]byte, n)
	for i := range out {
		text := ""
		for j := range 3 + i%5 {
			text += words[(i*7+j*3)%len(words)] + " "
		}
		out[i] = fmt.Appendf(nil, "id: %d\nevent: message\ndata: {\"user\":%q,\"text\":%q,\"ts\":%d}\n\n",
			1000+i, users[i%len(users)], text, 1733350000000+int64(i)*1337)
	}
	return out
}
