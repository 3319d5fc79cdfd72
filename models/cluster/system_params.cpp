// The keys of a system file (kind = "system"): which chip every device is, how the devices of a
// node are joined (scale-up: NVLink through switches, direct links, PCIe through a host bridge,
// a TPU torus), how nodes are joined (scale-out: a rail-optimised fat tree of NICs and switches),
// and the collective library's documented efficiency and latency parameters. Read once by
// SystemSpec::from_config (system_spec.cpp); sources of the shipped values are in configs/systems/.
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration system_params({"system"}, {
    text_param("system.chip", "the chip every device is: a shipped chip name (h100) or a chip file path"),
    count_param("system.nodes", "servers (scale-out endpoints), each holding scale_up.devices devices")
        .defaults_to("1").at_most(1e6),

    choice_param("scale_up.topology", {"switch", "all_to_all", "pcie", "torus"},
                 "how the devices of a node are joined: through switch chips (NVSwitch), by direct links "
                 "between every pair, through a PCIe host bridge, or as a torus (TPU ICI)").defaults_to("switch"),
    count_param("scale_up.devices", "devices per node (a torus has the product of scale_up.torus)")
        .defaults_to("1").at_most(1e6),
    text_param("scale_up.torus", "torus shape, e.g. \"16x16\" or \"4x4x8\" (torus only; 1 to 3 dimensions)")
        .defaults_to(""),
    bool_param("scale_up.wraparound", "torus: the last chip of each dimension links back to the first")
        .defaults_to("true"),
    choice_param("scale_up.link", {"nvlink", "pcie", "ici", "infinity_fabric"},
                 "link technology (names the fabric in reports)").defaults_to("nvlink"),
    count_param("scale_up.links", "links per device: spread over its switches (switch), over its peers "
                              "(all_to_all), over its 2·dims torus neighbours (torus), lanes to the host (pcie)")
        .defaults_to("1").at_most(4096),
    quantity_param("scale_up.link_bandwidth", Dimension::bandwidth,
                   "one link's bandwidth per direction (one lane for pcie)"),
    quantity_param("scale_up.latency", Dimension::time, "one hop: a link and the switch or bridge it enters")
        .defaults_to("0 s").zero_allowed(),
    count_param("scale_up.switches", "switch chips a device's links are spread over (switch topology)")
        .defaults_to("1").at_most(64),
    quantity_param("scale_up.host_bandwidth", Dimension::bandwidth,
                   "pcie: bandwidth of the host bridge that every transfer crosses (0: not a limit)")
        .defaults_to("0 B/s").zero_allowed(),
    bool_param("scale_up.p2p", "pcie: devices write into each other's memory; false: each transfer is staged "
                               "through host memory (it crosses the host bridge twice)").defaults_to("true"),
    quantity_param("scale_up.energy_per_bit", Dimension::energy, "energy per bit moved over one link")
        .defaults_to("0 J").zero_allowed(),

    choice_param("scale_out.topology", {"none", "fat_tree"},
                 "how nodes are joined: not at all, or NICs into a fat tree of switches").defaults_to("none"),
    count_param("scale_out.nics", "NICs per node; with rail_optimised and one NIC per device, NIC i serves device i")
        .defaults_to("1").at_most(64),
    quantity_param("scale_out.nic_bandwidth", Dimension::bandwidth, "one NIC port's bandwidth per direction")
        .defaults_to("50 GB/s"),
    quantity_param("scale_out.latency", Dimension::time, "one network hop: a cable and the switch it enters")
        .defaults_to("0 s").zero_allowed(),
    count_param("scale_out.switch_radix", "ports per network switch; half face down, half up (k-ary fat tree)")
        .defaults_to("64").at_most(4096),
    bool_param("scale_out.rail_optimised", "NIC i of every node goes to the leaf switches of rail i")
        .defaults_to("true"),
    quantity_param("scale_out.energy_per_bit", Dimension::energy, "energy per bit moved over one network hop")
        .defaults_to("0 J").zero_allowed(),

    quantity_param("collective.launch_overhead", Dimension::time,
                   "host-side cost of one collective call before data moves (launch, argument checks)")
        .defaults_to("0 s").zero_allowed(),
    integer_param("collective.channels", "channels a collective runs on per device (NCCL: one thread block each; "
                                         "0: the devices' copy work is not a limit)").defaults_to("0").at_most(1024),
    quantity_param("collective.channel_bandwidth", Dimension::bandwidth,
                   "bytes/s one channel's thread block moves (each byte sent and each byte received costs one)")
        .defaults_to("0 B/s").zero_allowed(),
    real_param("collective.compute_share",
                   "share of a device's compute units a running collective's kernels hold (NCCL: one SM per "
                   "channel): device work beside an asynchronous collective runs on the rest, slowed by "
                   "share / (1 - share) of the time they overlap").defaults_to("0").zero_allowed().at_most(0.9),
    fraction_param("collective.link_efficiency", "fraction of a scale-up link's bandwidth bulk (Simple protocol) "
                                                  "transfers reach").defaults_to("1"),
    fraction_param("collective.network_efficiency", "fraction of a NIC port's bandwidth bulk transfers reach")
        .defaults_to("1"),
    quantity_param("collective.simple.base_latency", Dimension::time,
                   "fixed latency of one collective with the Simple protocol (NCCL's baseLat)").defaults_to("0 s").zero_allowed(),
    quantity_param("collective.ll128.base_latency", Dimension::time,
                   "fixed latency of one collective with the LL128 protocol").defaults_to("0 s").zero_allowed(),
    quantity_param("collective.ll.base_latency", Dimension::time,
                   "fixed latency of one collective with the LL protocol").defaults_to("0 s").zero_allowed(),
    quantity_param("collective.simple.step_latency", Dimension::time,
                   "latency of one algorithm step with the Simple protocol (large messages)").defaults_to("0 s").zero_allowed(),
    quantity_param("collective.ll128.step_latency", Dimension::time,
                   "latency of one algorithm step with the LL128 protocol").defaults_to("0 s").zero_allowed(),
    quantity_param("collective.ll.step_latency", Dimension::time,
                   "latency of one algorithm step with the LL protocol (small messages)").defaults_to("0 s").zero_allowed(),
    fraction_param("collective.ll128.efficiency", "share of the Simple protocol's bandwidth LL128 reaches "
                                                   "(120 data bytes per 128-byte line)").defaults_to("0.9375"),
    fraction_param("collective.ll.efficiency", "share of the Simple protocol's bandwidth LL reaches "
                                                "(a 4-byte flag per 4 data bytes)").defaults_to("0.5"),
    quantity_param("collective.simple.network_step_latency", Dimension::time,
                   "extra latency of a Simple step that crosses the network (NIC, RDMA)").defaults_to("0 s").zero_allowed(),
    quantity_param("collective.ll128.network_step_latency", Dimension::time,
                   "extra latency of an LL128 step that crosses the network").defaults_to("0 s").zero_allowed(),
    quantity_param("collective.ll.network_step_latency", Dimension::time,
                   "extra latency of an LL step that crosses the network").defaults_to("0 s").zero_allowed(),
    bool_param("collective.low_latency_protocols",
               "the library has NCCL's LL and LL128 protocols (false: bulk transfers only, as XLA on TPU ICI)")
        .defaults_to("true"),
    bool_param("collective.nvls.enabled",
               "the scale-up switches reduce and multicast (NVLink SHARP, NVSwitch gen3 and later): all-reduce "
               "within a node may run as NCCL's NVLS algorithm (switch topology only)").defaults_to("false"),
    fraction_param("collective.nvls.efficiency",
                   "share of the bulk link rate (collective.link_efficiency) that NVLS's multimem loads and "
                   "stores reach (NCCL's nvlsEfficiency)").defaults_to("1"),
    quantity_param("collective.nvls.base_latency", Dimension::time,
                   "fixed latency of one NVLS collective (in place of the protocol's base latency)")
        .defaults_to("0 s").zero_allowed(),
});

}  // namespace
}  // namespace hwsim
