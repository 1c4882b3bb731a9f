# kfdsim builtin profile 'rx6900xt': one AMD Radeon RX 6900 XT (gfx1030, sienna_cichlid, 80 CUs, 16 GiB GDDR6, small BAR)
# Illustrative values: gpu_id, PCI location, firmware versions and unique_id are
# board specific; sizes, counts and derived CWSR values follow the kernel's formulas.
[machine]
name "rx6900xt"
description "one AMD Radeon RX 6900 XT (gfx1030, sienna_cichlid, 80 CUs, 16 GiB GDDR6, small BAR)"
platform_oem 2314885706915061825
platform_id 71791775140929
platform_rev 2
generation_id 2
system_mem_limit 0

# The host: a desktop Ryzen 7 5800X (Zen 3 "Vermeer", 8 cores x 2 threads =
# the KFD CPU node's 16 cpu_cores_count; one CCD sharing 32 MiB of L3).
[cpu]
vendor_id AuthenticAMD
family 25
model 33
stepping 0
model_name "AMD Ryzen 7 5800X 8-Core Processor"
mhz 3800
microcode 0xa201016
cpuid_level 16
sockets 1
cores_per_socket 8
threads_per_core 2
numa_per_socket 1

[cpu cache 0]
level 1
type Data
size 32
ways 8
line_size 64
partitions 1
cores 1

[cpu cache 1]
level 1
type Instruction
size 32
ways 8
line_size 64
partitions 1
cores 1

[cpu cache 2]
level 2
type Unified
size 512
ways 8
line_size 64
partitions 1
cores 1

[cpu cache 3]
level 3
type Unified
size 32768
ways 16
line_size 64
partitions 1
cores 8

[node 0]
gpu_id 0
name ""
cpu_cores_count 16
simd_count 0
mem_banks_count 1
caches_count 0
io_links_count 0
p2p_links_count 0
cpu_core_id_base 0
simd_id_base 0
max_waves_per_simd 0
lds_size_in_kb 0
gds_size_in_kb 0
num_gws 0
wave_front_size 0
array_count 0
simd_arrays_per_engine 0
cu_per_simd_array 0
simd_per_cu 0
max_slots_scratch_cu 0
gfx_target_version 0
vendor_id 0
device_id 0
location_id 0
domain 0
drm_render_minor 0
hive_id 0
num_sdma_engines 0
num_sdma_xgmi_engines 0
num_sdma_queues_per_engine 0
num_cp_queues 0
max_engine_clk_ccompute 4900

[node 0 mem_bank 0]
heap_type 0
size_in_bytes 68719476736
flags 0
width 64
mem_clk_max 3200

[node 1]
gpu_id 19578
name "sienna_cichlid"
cpu_cores_count 0
simd_count 160
mem_banks_count 1
caches_count 90
io_links_count 1
p2p_links_count 0
cpu_core_id_base 0
simd_id_base 2147487744
max_waves_per_simd 16
lds_size_in_kb 64
gds_size_in_kb 0
num_gws 64
wave_front_size 32
array_count 8
simd_arrays_per_engine 2
cu_per_simd_array 10
simd_per_cu 2
max_slots_scratch_cu 32
gfx_target_version 100300
vendor_id 4098
device_id 29631
location_id 2816
domain 0
drm_render_minor 128
hive_id 0
num_sdma_engines 4
num_sdma_xgmi_engines 0
num_sdma_queues_per_engine 2
num_cp_queues 8
max_engine_clk_fcompute 2250
local_mem_size 0
fw_version 115
capability 671326848
debug_prop 1495
sdma_fw_version 83
unique_id 0
num_xcc 1
max_engine_clk_ccompute 4900

[node 1 mem_bank 0]
heap_type 2
size_in_bytes 17163091968
flags 0
width 256
mem_clk_max 1000

[node 1 cache 0]
repeat 80
processor_id_step 1
processor_id_low 2147487744
level 1
size 16
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 80]
repeat 8
processor_id_step 10
processor_id_low 2147487744
level 1
size 128
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0

[node 1 cache 88]
processor_id_low 2147487744
level 2
size 4096
cache_line_size 128
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 1 cache 89]
processor_id_low 2147487744
level 3
size 131072
cache_line_size 64
cache_lines_per_tag 1
association 16
latency 0
type 9
sibling_map 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1

[node 1 io_link 0]
type 2
version_major 0
version_minor 0
node_from 1
node_to 0
weight 20
min_latency 0
max_latency 0
min_bandwidth 312
max_bandwidth 32000
recommended_transfer_size 0
flags 1
recommended_sdma_engine_id_mask 15

[node 1 gpu]
lds_base 0x1000000000000
lds_limit 0x10000ffffffff
scratch_base 0x2000000000000
scratch_limit 0x20000ffffffff
gpuvm_base 0x10000
gpuvm_limit 0x7fffffffffff
doorbell_size 8
doorbell_slice 8192
soc15 1
eop_buffer_size 4096
ctl_stack_size 28672
cwsr_size 27881472
debug_memory_size 81920
large_bar 0
is_apu 0
xnack_capable 0
xnack_default 0
sched_policy 0
max_queues 127
num_gws 64
gpu_clock_hz 100000000
vram_size 17163091968
vram_reserved 16777216
gb_addr_config 0x444
num_banks 0
num_ranks 0
num_tile_configs 32
num_macro_tile_configs 16

[node 1 drm]
render_minor 128
card_minor 0
version_major 3
version_minor 57
version_patch 0
pci_domain 0
pci_bus 11
pci_dev 0
pci_func 0
subsystem_vendor 0x1002
subsystem_device 0xe3a
device_id 0x73bf
chip_rev 0
external_rev 0x28
pci_rev 0xc0
family 143
num_shader_engines 4
num_shader_arrays_per_engine 2
gpu_counter_freq 100000
max_engine_clock 2250000
max_memory_clock 1000000
min_engine_clock 500000
min_memory_clock 100000
cu_active_number 80
cu_ao_mask 0
cu_bitmap 0x3ff,0x3ff,0x0,0x0,0x3ff,0x3ff,0x0,0x0,0x3ff,0x3ff,0x0,0x0,0x3ff,0x3ff,0x0,0x0
enabled_rb_pipes_mask 0xffff
num_rb_pipes 16
num_hw_gfx_contexts 8
ids_flags 0
virtual_address_offset 0x200000
virtual_address_max 0x800000000000
virtual_address_alignment 4096
pte_fragment_size 2097152
gart_page_size 4096
vram_type 9
vram_bit_width 256
wave_front_size 32
num_shader_visible_vgprs 1024
num_cu_per_sh 10
num_tcc_blocks 16
high_va_offset 0xffff800000000000
high_va_max 0xffffffffffe00000
vram_size 17163091968
visible_vram_size 268435456
gtt_size 34359738368
product_name ""
product_number ""
serial_number ""
vbios_version "113-D4120100-101"
vram_vendor "samsung"
pcie_gen 4
pcie_width 16
power_average 9
power_cap 255
power_cap_max 293
temp_edge 41
temp_junction 43
temp_mem 46
temp_edge_crit 100
temp_junction_crit 110
temp_mem_crit 100
fan_rpm 1150
fan_max_rpm 3300
vddgfx 825
