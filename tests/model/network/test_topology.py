"""Sites, cuts and CONNAME addresses."""

from __future__ import annotations

from mqsh.model.network.topology import DEFAULT_SITE, Address, Topology, addresses, default_address, ipv4
from mqsh.store.files import write_document


def test_conname_lists_hosts_and_ports_with_1414_by_default():
    assert addresses("qm2(1415)") == [Address("qm2", 1415)]
    assert addresses("QM2") == [Address("qm2", 1414)]
    assert addresses("prod1(1414),dr1(1420)") == [Address("prod1", 1414), Address("dr1", 1420)]
    assert addresses("10.1.2.3(1414)") == [Address("10.1.2.3", 1414)]
    assert addresses("") == [] and addresses("(1414)") == []


def test_every_host_is_in_main_and_joined_until_placed_and_cut(tmp_path):
    topology = Topology(tmp_path / "network.json")
    assert topology.site_of("anyhost") == DEFAULT_SITE
    assert topology.joined("a", "b")
    topology.place("drhost", "dr")
    assert topology.site_of("DRHOST") == "DR" and topology.joined("a", "drhost")
    topology.cut("MAIN", "DR")
    assert not topology.joined("a", "drhost") and not topology.joined("drhost", "a")
    assert topology.joined("a", "b") and topology.joined("drhost", "drhost")
    assert topology.cuts() == [("DR", "MAIN")]
    # another process sees the same network
    assert not Topology(tmp_path / "network.json").joined("a", "drhost")
    topology.join("dr", "main")
    assert topology.joined("a", "drhost") and topology.cuts() == []


def test_a_damaged_network_file_is_read_as_the_default_network_and_said_to_be(tmp_path):
    path = tmp_path / "network.json"
    assert not Topology(path).damaged()
    path.write_bytes(b"\x00garbage")
    assert Topology(path).joined("a", "b") and Topology(path).site_of("a") == DEFAULT_SITE
    assert Topology(path).damaged()
    Topology(path).cut("A", "B")
    assert not Topology(path).damaged() and Topology(path).cuts() == [("A", "B")]


def test_hosts_have_stable_default_addresses_until_one_is_set(tmp_path):
    topology = Topology(tmp_path / "network.json")
    assert (
        topology.address_of("prod1")
        == default_address("PROD1")
        == Topology(tmp_path / "x.json").address_of("prod1")
    )
    assert ipv4(topology.address_of("prod1")) == topology.address_of("prod1")
    topology.set_address("PROD1", "10.1.0.5")
    assert Topology(tmp_path / "network.json").address_of("prod1") == "10.1.0.5"
    assert topology.host_at("10.1.0.5", ["dr1", "Prod1"]) == "prod1"
    assert topology.host_at(default_address("dr1"), ["dr1", "prod1"]) == "dr1"
    assert topology.host_at("10.9.9.9", ["dr1", "prod1"]) is None
    assert topology.sites() == {DEFAULT_SITE: ["prod1"]}  # a host with an address is shown, in MAIN


def test_ipv4_addresses_are_four_numbers_up_to_255():
    assert ipv4("10.01.0.5") == "10.1.0.5" and ipv4(" 192.0.2.1 ") == "192.0.2.1"
    assert ipv4("10.1.0") is None and ipv4("10.1.0.256") is None and ipv4("prod1") is None


def test_a_network_file_with_addresses_of_the_wrong_shape_is_damaged(tmp_path):
    path = tmp_path / "network.json"
    write_document(path, {"sites": {}, "cuts": [], "addresses": ["a"]})
    assert Topology(path).damaged() and Topology(path).address_of("a") == default_address("a")
