package io.isowatch.streams.ui;

import static io.isowatch.streams.ui.UiFixtures.anomaly;
import static io.isowatch.streams.ui.UiFixtures.edge;
import static io.isowatch.streams.ui.UiFixtures.op;
import static io.isowatch.streams.ui.UiFixtures.txn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Edge;
import io.isowatch.schemas.EdgeKind;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.OpType;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgGraphTest {
  @Test
  void shouldDrawEveryTransactionAndEveryLabelledEdgeWhenGivenTheCheckersLostUpdate() throws Exception {
    // Given: the lost update the checker finds in samples/lost-update.jsonl.
    final Anomaly a = UiFixtures.lostUpdateSample("acme").stream()
        .filter(x -> "LostUpdate".equals(x.getName())).findFirst().orElseThrow();

    // When
    final Document svg = parse(SvgGraph.render(a));

    // Then: one node per transaction, with its id and operations ...
    assertEquals("svg", svg.getDocumentElement().getLocalName());
    final List<Element> nodes = byClass(svg, "g", "node");
    assertEquals(a.getTransactions().stream().map(t -> t.getTxn()).toList(),
        nodes.stream().map(n -> n.getAttribute("data-txn")).toList());
    for (final Element n : nodes) {
      final String text = n.getTextContent();
      assertTrue(text.contains(n.getAttribute("data-txn")), text);
      a.getTransactions().stream().filter(t -> t.getTxn().equals(n.getAttribute("data-txn"))).findFirst()
          .orElseThrow().getOps().forEach(o -> assertTrue(text.contains(SvgGraph.op(o)), text + " lacks " + o));
    }
    // ... and one edge per cycle edge, in order, labelled with kind, key and value.
    final List<Element> edges = byClass(svg, "g", "edge");
    assertEquals(a.getCycle().size(), edges.size());
    for (int i = 0; i < edges.size(); i++) {
      final Edge e = a.getCycle().get(i);
      final Element g = edges.get(i);
      assertEquals(e.getFrom(), g.getAttribute("data-from"));
      assertEquals(e.getTo(), g.getAttribute("data-to"));
      assertEquals(e.getKind().name(), g.getAttribute("data-kind"));
      assertEquals(e.getKind().name() + " " + e.getKey() + "=" + e.getValue(),
          byClass(g, "text", "edge-label").get(0).getTextContent());
      assertEquals(1, g.getElementsByTagNameNS("*", "path").getLength());
    }
  }

  @Test
  void shouldEscapeMarkupAndDropIllegalCharactersWhenIdsAndKeysCarryThem() throws Exception {
    // Given: ids and keys with markup, quotes and a control character.
    final String evilTxn = "<script>alert('x')</script>&\"";
    final String evilKey = "k<&>\u0001\"'";
    final Anomaly a = anomaly("t<1>", "id", "G-single", "Lost<Update>", List.of(Level.SER),
        List.of(txn(evilTxn, "s&1", List.of(op(OpType.READ, evilKey, 0L), op(OpType.WRITE, evilKey, 1L))),
            txn("b", "s2", List.of(op(OpType.READ, evilKey, 0L), op(OpType.WRITE, evilKey, 2L)))),
        List.of(edge(evilTxn, "b", EdgeKind.RW, evilKey, 0L), edge("b", evilTxn, EdgeKind.WW, evilKey, 2L)),
        1L, null);

    // When
    final String text = SvgGraph.render(a);
    final Document svg = parse(text);

    // Then: well-formed, no raw markup, the values intact as text.
    assertFalse(text.contains("<script>"), text);
    assertFalse(text.contains("\u0001"), "control character dropped");
    assertEquals(evilTxn, byClass(svg, "g", "node").get(0).getAttribute("data-txn"));
    assertEquals(evilKey.replace('\u0001', '\uFFFD'), byClass(svg, "g", "edge").get(0).getAttribute("data-key"));
    assertEquals("RW k<&>\uFFFD\"'=0", byClass(svg, "text", "edge-label").get(0).getTextContent());
  }

  @Test
  void shouldSeparateParallelEdgesAndRenderIdenticallyWhenRenderedTwice() throws Exception {
    // Given: three transactions, two edges in the same direction between the first two, SO and RT edges.
    final Anomaly a = anomaly("t", "id", "G2-item", null, List.of(Level.SER, Level.SI),
        List.of(txn("a", "s1", List.of(op(OpType.READ, "x", 0L))), txn("b", "s1", List.of()),
            txn("c", "s2", List.of(op(OpType.WRITE, "y", 3L)))),
        List.of(edge("a", "b", EdgeKind.SO, null, null), edge("a", "b", EdgeKind.RW, "x", 0L),
            edge("b", "c", EdgeKind.RT, null, null), edge("c", "a", EdgeKind.WR, "y", 3L)),
        1L, null);

    // When
    final String first = SvgGraph.render(a);
    final String second = SvgGraph.render(a);
    final Document svg = parse(first);

    // Then
    assertEquals(first, second);
    final List<Element> edges = byClass(svg, "g", "edge");
    assertEquals(List.of("SO", "RW", "RT", "WR"), edges.stream().map(e -> e.getAttribute("data-kind")).toList());
    assertEquals(List.of("SO", "RW x=0", "RT", "WR y=3"),
        byClass(svg, "text", "edge-label").stream().map(Element::getTextContent).toList());
    final String d0 = ((Element) edges.get(0).getElementsByTagNameNS("*", "path").item(0)).getAttribute("d");
    final String d1 = ((Element) edges.get(1).getElementsByTagNameNS("*", "path").item(0)).getAttribute("d");
    assertFalse(d0.equals(d1), "parallel edges take different curves");
    assertFalse(edges.get(0).hasAttribute("data-key"));
  }

  @Test
  void shouldDrawTheTransactionsWithoutEdgesWhenTheAnomalyIsNotACycle() throws Exception {
    // Given: an aborted read (G1a): no cycle.
    final Anomaly a = anomaly("t", "id", "G1a", "AbortedRead", List.of(Level.SER),
        List.of(txn("w", "s1", List.of(op(OpType.WRITE, "x", 1L))), txn("r", "s2", List.of(op(OpType.READ, "x", 1L)))),
        List.of(), 1L, null);

    // When
    final Document svg = parse(SvgGraph.render(a));

    // Then
    assertEquals(2, byClass(svg, "g", "node").size());
    assertEquals(0, byClass(svg, "g", "edge").size());
  }

  private static Document parse(final String svg) throws Exception {
    final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    final DocumentBuilder b = f.newDocumentBuilder();
    return b.parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<Element> byClass(final Object root, final String tag, final String cls) {
    final NodeList all = root instanceof Document d ? d.getElementsByTagNameNS("*", tag)
        : ((Element) root).getElementsByTagNameNS("*", tag);
    final List<Element> out = new ArrayList<>();
    for (int i = 0; i < all.getLength(); i++) {
      final Element e = (Element) all.item(i);
      if (List.of(e.getAttribute("class").split(" ")).contains(cls)) {
        out.add(e);
      }
    }
    return out;
  }
}
