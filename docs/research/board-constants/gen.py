# The struct-size method of docs/research/board-constants.md, section 1: extracts struct sk_buff and skb_shared_info
# verbatim from a kernel tree's include/linux/skbuff.h and has gcc lay them out (-m64, or -m32 -malign-double for ARM32's
# EABI alignment: an approximation, not an ARM compiler). KERNELS: a folder holding one kernel tree per version (v3.10,
# v3.19, v4.6). Usage: KERNELS=/path python3 gen.py VERSION ARCH [CONFIG_OPTION...]
import os
import re,sys,subprocess,itertools
def extract(path,name):
    s=open(path).read()
    m=re.search(r'^struct %s \{.*?^\};'%re.escape(name),s,re.S|re.M)
    return m.group(0)
def build(ver,arch,opts):
    h=os.path.join(os.environ.get('KERNELS', '.'), ver, 'include/linux/skbuff.h')
    bits=64 if arch=='x86_64' else 32
    pre=['#define BITS_PER_LONG %d'%bits,'#define PAGE_SIZE 4096',
          '#define kmemcheck_bitfield_begin(x)','#define kmemcheck_bitfield_end(x)',
     '#define __aligned(x) __attribute__((aligned(x)))',
     'typedef unsigned char __u8; typedef unsigned short __u16; typedef unsigned int __u32; typedef unsigned long long __u64;',
     'typedef __u8 u8; typedef __u16 u16; typedef __u32 u32; typedef __u64 u64; typedef long long s64; typedef int s32;',
     'typedef __u16 __be16; typedef __u32 __be32; typedef __u32 __wsum;',
     'typedef struct { int counter; } atomic_t;',
     'union ktime { s64 tv64; }; typedef union ktime ktime_t;',
     'struct rb_node { unsigned long __rb_parent_color; struct rb_node *rb_right; struct rb_node *rb_left; } __attribute__((aligned(sizeof(long))));',
     '#if BITS_PER_LONG > 32\n#define NET_SKBUFF_DATA_USES_OFFSET 1\n#endif',
     '#ifdef NET_SKBUFF_DATA_USES_OFFSET\ntypedef unsigned int sk_buff_data_t;\n#else\ntypedef unsigned char *sk_buff_data_t;\n#endif',
     '#if (65536/PAGE_SIZE + 1) < 16\n#define MAX_SKB_FRAGS 16UL\n#else\n#define MAX_SKB_FRAGS (65536/PAGE_SIZE + 1)\n#endif',
    ]
    pre=['#define %s 1'%o for o in opts]+pre
    src=open(h).read()
    parts=[]
    if 'struct skb_mstamp {' in src: parts.append(extract(h,'skb_mstamp'))
    parts.append(extract(h,'skb_frag_struct')); parts.append('typedef struct skb_frag_struct skb_frag_t;')
    parts.append(extract(h,'skb_shared_hwtstamps'))
    parts.append(extract(h,'sk_buff'))
    parts.append(extract(h,'skb_shared_info'))
    parts.append('int SZ_SKB = sizeof(struct sk_buff); int SZ_SHINFO = sizeof(struct skb_shared_info);')
    c='\n'.join(pre+parts)
    c=re.sub(r'IS_ENABLED\((CONFIG_\w+)\)',lambda m:'(defined(%s) || defined(%s_MODULE))'%(m.group(1),m.group(1)),c)
    open('t.c','w').write(c)
    flags=['-m64'] if arch=='x86_64' else ['-m32','-malign-double']
    r=subprocess.run(['gcc','-S','-o','-','-x','c','t.c']+flags,capture_output=True,text=True)
    if r.returncode: print(r.stderr[:3000]); return None
    vals=re.findall(r'SZ_(SKB|SHINFO):\s*\n\s*\.long\s+(\d+)',r.stdout)
    return dict(vals)
ver,arch=sys.argv[1],sys.argv[2]; opts=sys.argv[3:]
print(ver,arch,' '.join(o.replace('CONFIG_','') for o in opts) or '-',build(ver,arch,opts))
