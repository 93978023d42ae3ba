package corpus

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// A language's words for generated text: most of the bytes of non-Latin
// scripts are two or three bytes of UTF-8 each, which is what these
// bodies bring to the corpus.
type language struct {
	tag   string
	words []string
	stop  string // what ends a sentence
	space string // between words: "" for scripts written without spaces
}

var languages = []language{
	{"de", strings.Fields("die Bestellung wurde gestern versandt und wird voraussichtlich am Freitag zugestellt bitte prüfen Sie Ihre Adresse für Rückfragen steht unser Kundendienst gern zur Verfügung Größe Menge Preis übernehmen"), ".", " "},
	{"fr", strings.Fields("votre commande a été expédiée hier et sera livrée vendredi veuillez vérifier votre adresse notre service client reste à votre disposition pour toute question élément quantité prix reçu"), ".", " "},
	{"ru", strings.Fields("ваш заказ был отправлен вчера и будет доставлен в пятницу пожалуйста проверьте адрес доставки наша служба поддержки ответит на любые вопросы товар количество цена"), ".", " "},
	{"el", strings.Fields("η παραγγελία σας στάλθηκε χθες και θα παραδοθεί την Παρασκευή παρακαλούμε ελέγξτε τη διεύθυνσή σας η εξυπηρέτηση πελατών είναι στη διάθεσή σας προϊόν ποσότητα τιμή"), ".", " "},
	{"ja", strings.Fields("ご注文の 商品は 昨日 発送されました 金曜日に お届け予定です ご住所を ご確認ください お問い合わせは カスタマーサポートまで 数量 価格 在庫 確認"), "。", ""},
	{"zh", strings.Fields("您的 订单 已于 昨天 发货 预计 星期五 送达 请 核对 您的 地址 如有 问题 请 联系 客服 数量 价格 库存"), "。", ""},
	{"ar", strings.Fields("تم شحن طلبك أمس وسيتم تسليمه يوم الجمعة يرجى التحقق من عنوانك فريق خدمة العملاء في خدمتك المنتج الكمية السعر"), ".", " "},
	{"ko", strings.Fields("주문하신 상품이 어제 발송되었으며 금요일에 도착할 예정입니다 주소를 확인해 주세요 문의 사항은 고객센터로 연락해 주세요 수량 가격 재고"), ".", " "},
}

// sentence is a few of lang's words in a random order, capped by its full
// stop.
func (l language) sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = pick(r, l.words)
	}
	return strings.Join(w, l.space) + l.stop
}

// messages is an i18n message catalogue as a web app fetches it: per
// locale, nested message ids with placeholders and plural forms.
func messages(r *rand.Rand) []byte {
	sections := []string{"checkout", "account", "orders", "errors", "search"}
	keys := []string{"title", "subtitle", "empty", "confirm", "cancel", "help", "success", "failure"}
	catalogue := map[string]map[string]map[string]string{}
	size := 0
	for i := 0; size < generatedSize+2048; i++ {
		l := languages[i%len(languages)]
		section := fmt.Sprintf("%s_%d", pick(r, sections), i/len(languages))
		if catalogue[l.tag] == nil {
			catalogue[l.tag] = map[string]map[string]string{}
		}
		m := map[string]string{}
		for _, k := range keys[:3+r.IntN(len(keys)-2)] {
			s := l.sentence(r, 3+r.IntN(6))
			if r.IntN(3) == 0 {
				s = "{count, plural, one {# " + pick(r, l.words) + "} other {# " + pick(r, l.words) + "}} " + s
			}
			m[k] = s
			size += len(k) + len(s) + 8
		}
		catalogue[l.tag][section] = m
	}
	b, _ := json.Marshal(catalogue)
	return b
}

// article is running text in one language per paragraph, as a
// multilingual help page or e-mail body, with short headings.
func article(r *rand.Rand) []byte {
	var b strings.Builder
	for i := 0; b.Len() < generatedSize; i++ {
		l := pick(r, languages)
		fmt.Fprintf(&b, "## %s\n\n", l.sentence(r, 2+r.IntN(3)))
		for range 2 + r.IntN(4) {
			b.WriteString(l.sentence(r, 6+r.IntN(14)))
			b.WriteString(l.space)
		}
		b.WriteString("\n\n")
	}
	return []byte(b.String())
}
