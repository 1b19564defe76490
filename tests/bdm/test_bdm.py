"""The BDM: the published example line, a small taxonomy counted by hand, OWL through rdflib, the file format."""

import pytest

from accord.bdm import (
    BdmScore,
    BdmTable,
    Taxonomy,
    bdm_scores,
    bdm_value,
    read_bdm_file,
    read_hierarchy,
    read_ontology,
    read_taxonomy,
    write_bdm_file,
)
from accord.bdm._file import format_bdm_line
from accord.errors import FormatError, OntologyError

# GATE guide 10.6: the example line of a BDM file
EXAMPLE = ("key=Service, response=Object, bdm=0.6617647, msca=Object, cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0, "
           "n2=2.8333333, bran=1.9565217")

TAXONOMY = """# a small taxonomy
Entity
Person\tEntity
Organisation\tEntity
Politician\tPerson
Artist\tPerson
Company\tOrganisation
"""


def test_published_example_from_its_parameters():
    value = bdm_value(cp=1, dpk=1, dpr=0, n0=2.0, n1=2.0, n2=2.8333333, bran=1.9565217)
    # (1.9565217 / 2) / (1.9565217 / 2 + 1 / 2) = 0.97826 / 1.47826
    assert value == pytest.approx(0.6617647, abs=1e-7)
    line = format_bdm_line(BdmScore("Service", "Object", value, "Object", 1, 1, 0, 2.0, 2.0, 2.8333333, 1.9565217))
    assert line == EXAMPLE


@pytest.fixture
def taxonomy(tmp_path):
    p = tmp_path / "tax.tsv"
    p.write_text(TAXONOMY, encoding="utf-8")
    return read_taxonomy(p)


def test_hand_counted_taxonomy(taxonomy):
    table = BdmTable(bdm_scores(taxonomy))
    # leaves Politician, Artist, Company all at depth 2: n0 = 2; non-leaves have 2, 2, 1 subclasses: mean 5/3
    s = table.score("Politician", "Artist")
    assert (s.msca, s.cp, s.dpk, s.dpr, s.n0, s.n1, s.n2) == ("Person", 1, 1, 1, 2.0, 2.0, 2.0)
    assert s.bran == pytest.approx(2 / (5 / 3))                       # Person has 2 subclasses
    assert s.bdm == pytest.approx(0.6 / (0.6 + 0.5 + 0.5))            # 0.375
    s = table.score("Person", "Politician")
    assert (s.msca, s.cp, s.dpk, s.dpr) == ("Person", 1, 0, 1)
    assert s.bdm == pytest.approx(0.6 / (0.6 + 0.5))                  # 0.5454...
    s = table.score("Company", "Organisation")                        # looked up in the reverse order
    assert (s.key, s.response, s.msca, s.dpk, s.dpr) == ("Organisation", "Company", "Organisation", 0, 1)
    assert s.bran == pytest.approx(1 / (5 / 3))
    assert s.bdm == pytest.approx(0.3 / (0.3 + 0.5))                  # 0.375
    # the common abstraction is the top: cp = 0, BDM 0
    assert table.bdm("Politician", "Company") == 0.0
    s = table.score("Artist", "Artist")
    assert (s.bdm, s.cp, s.dpk, s.dpr, s.n1, s.n2, s.bran) == (1.0, 2, 0, 0, 1.0, 1.0, 1.0)
    assert table.bdm("Artist", "Unknown") == 0.0
    assert len(table) == 6 * 7 // 2


def test_symmetric_and_ordered_pairs(taxonomy):
    ordered = {(s.key, s.response): s.bdm for s in bdm_scores(taxonomy, pairs="ordered")}
    assert len(ordered) == 36
    for (k, r), v in ordered.items():
        assert v == pytest.approx(ordered[(r, k)])


def test_several_superclasses_keep_the_best_chain():
    # Singer is both an Artist and an Employee; Employee is deeper in the hierarchy
    tax = Taxonomy.from_edges([("Person", None), ("Artist", "Person"), ("Worker", "Person"),
                               ("Employee", "Worker"), ("Singer", "Artist"), ("Singer", "Employee"),
                               ("Clerk", "Employee")])
    s = BdmTable(bdm_scores(tax)).score("Singer", "Clerk")
    # leaf chains: Singer-Artist-Person (2), Singer-Employee-Worker-Person (3), Clerk-Employee-Worker-Person (3)
    n0 = (2 + 3 + 3) / 3
    n_singer, n_clerk = (2 + 3) / 2, 3.0
    # non-leaf subclass counts: Person 2, Artist 1, Worker 1, Employee 2 -> mean 1.5
    # via Employee: msca Employee, cp 2, dpk 1, dpr 1, bran = 2 / 1.5
    bran = 2 / 1.5
    best = (bran * 2 / n0) / (bran * 2 / n0 + 1 / n_singer + 1 / n_clerk)
    assert (s.msca, s.cp, s.dpk, s.dpr) == ("Employee", 2, 1, 1)
    assert s.bdm == pytest.approx(best)
    assert (s.n0, s.n1, s.n2) == pytest.approx((n0, n_singer, n_clerk))


OWL = """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
         xmlns:owl="http://www.w3.org/2002/07/owl#"
         xml:base="http://example.org/onto">
  <owl:Ontology rdf:about="http://example.org/onto"/>
  <owl:Class rdf:about="#Entity"><rdfs:subClassOf rdf:resource="http://www.w3.org/2002/07/owl#Thing"/></owl:Class>
  <owl:Class rdf:about="#Person"><rdfs:subClassOf rdf:resource="#Entity"/></owl:Class>
  <owl:Class rdf:about="#Organisation"><rdfs:subClassOf rdf:resource="#Entity"/></owl:Class>
  <owl:Class rdf:about="#Politician">
    <rdfs:subClassOf rdf:resource="#Person"/>
    <rdfs:subClassOf><owl:Restriction><owl:onProperty rdf:resource="#memberOf"/>
      <owl:someValuesFrom rdf:resource="#Organisation"/></owl:Restriction></rdfs:subClassOf>
  </owl:Class>
  <owl:Class rdf:about="#Artist"><rdfs:subClassOf rdf:resource="#Person"/></owl:Class>
  <owl:Class rdf:about="#Company"><rdfs:subClassOf rdf:resource="#Organisation"/></owl:Class>
</rdf:RDF>
"""

TURTLE = """@prefix : <http://example.org/onto#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:Entity a owl:Class .
:Person rdfs:subClassOf :Entity . :Organisation rdfs:subClassOf :Entity .
:Politician rdfs:subClassOf :Person . :Artist rdfs:subClassOf :Person .
:Company rdfs:subClassOf :Organisation .
"""


@pytest.mark.parametrize("name,text", [("onto.owl", OWL), ("onto.ttl", TURTLE)])
def test_ontology_through_rdflib_equals_the_taxonomy(tmp_path, taxonomy, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    onto = read_hierarchy(p)
    assert sorted(onto.concepts) == sorted(taxonomy.concepts)
    assert {c: set(ps) for c, ps in onto.parents.items()} == {c: set(ps) for c, ps in taxonomy.parents.items()}
    a, b = BdmTable(bdm_scores(onto)), BdmTable(bdm_scores(taxonomy))
    for s in b:
        assert a.bdm(s.key, s.response) == pytest.approx(s.bdm)


def test_file_round_trip_and_gate_lines(tmp_path, taxonomy):
    p = tmp_path / "bdm.txt"
    scores = list(bdm_scores(taxonomy))
    assert write_bdm_file(scores, p) == len(scores)
    back = read_bdm_file(p)
    for s in scores:
        t = back.score(s.key, s.response)
        assert (t.msca, t.cp, t.dpk, t.dpr) == (s.msca, s.cp, s.dpk, s.dpr)
        assert t.bdm == pytest.approx(s.bdm, rel=1e-6)                # written as 32-bit floats
    g = tmp_path / "gate.txt"
    g.write_text("## header written by GATE\n" + EXAMPLE + "\nkey=A, response=B, bdm=0.25\n", encoding="utf-8")
    table = read_bdm_file(g)
    assert table.bdm("Object", "Service") == pytest.approx(0.6617647)
    assert table.score("Service", "Object").n2 == pytest.approx(2.8333333)
    assert table.bdm("B", "A") == 0.25


@pytest.mark.parametrize("body,message", [
    ("key=A, response=B\n", "starts with key="),
    ("key=A, response=B, bdm=x\n", "malformed"),
    ("key=A, response=B, bdm=1.5\n", r"in \[0, 1\]"),
    ("key=A; response=B; bdm=1\n", "starts with key="),
    ("key=A, response=B, bdm\n", "name=value"),
    ("", "no BDM line"),
])
def test_bad_bdm_files(tmp_path, body, message):
    p = tmp_path / "bad.txt"
    p.write_text("## header\n" + body, encoding="utf-8")
    with pytest.raises(FormatError, match=message) as err:
        read_bdm_file(p)
    assert str(p) in str(err.value)


def test_bad_taxonomies(tmp_path):
    p = tmp_path / "t.tsv"
    p.write_text("A\tB\nB\tC\nC\tA\n", encoding="utf-8")
    with pytest.raises(FormatError, match="cycle"):
        read_taxonomy(p)
    p.write_text("A\tB\tC\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"t.tsv:1: expected 'concept<TAB>superclass'"):
        read_taxonomy(p)
    with pytest.raises(OntologyError, match="its own superclass"):
        Taxonomy.from_edges([("A", "A")])
    q = tmp_path / "o.owl"
    q.write_text("<rdf:RDF", encoding="utf-8")
    with pytest.raises(FormatError, match="not a readable RDF/OWL document"):
        read_ontology(q)


@pytest.mark.timing
def test_xml_entities_are_never_expanded(tmp_path):
    import time

    # "billion laughs": 10 levels of 10 references (10^10 characters if expanded)
    lol = "".join(f'<!ENTITY l{k} "{f"&l{k - 1};" * 10}">' if k else '<!ENTITY l0 "lol">' for k in range(10))
    bomb = tmp_path / "bomb.owl"
    bomb.write_text(f'<?xml version="1.0"?><!DOCTYPE rdf:RDF [{lol}]>' + OWL.split("?>", 1)[1]
                    .replace('xml:base="http://example.org/onto"', 'xml:base="http://example.org/onto" a="&l9;"'),
                    encoding="utf-8")
    began = time.perf_counter()
    with pytest.raises(FormatError, match="bomb.owl.*entit"):
        read_ontology(bomb)
    assert time.perf_counter() - began < 2
    external = tmp_path / "ext.owl"
    external.write_text('<?xml version="1.0"?><!DOCTYPE rdf:RDF [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                        + OWL.split("?>", 1)[1], encoding="utf-8")
    with pytest.raises(FormatError, match="ext.owl.*entit"):
        read_ontology(external)


def test_plain_entities_as_protege_writes_them(tmp_path, taxonomy):
    text = OWL.split("?>", 1)[1].replace('"http://www.w3.org/2002/07/owl#"', '"&owl;"', 1)
    p = tmp_path / "protege.owl"
    p.write_text('<?xml version="1.0"?><!DOCTYPE rdf:RDF [<!ENTITY owl "http://www.w3.org/2002/07/owl#">]>' + text,
                 encoding="utf-8")
    onto = read_ontology(p)
    assert sorted(onto.concepts) == sorted(taxonomy.concepts)
