/* quick experiment: dg_scc vs the library's host Tarjan on bench_reach's cyclic graph */
#define DYNGRAPH_IMPLEMENTATION
#include "dyngraph.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
static double now(void){struct timeval t;gettimeofday(&t,NULL);return t.tv_sec*1e3+t.tv_usec*1e-3;}
static uint64_t x=88172645463325252ull; static uint64_t r64(void){x^=x<<13;x^=x>>7;x^=x<<17;return x;}
int main(int argc,char**argv){
  size_t n=argc>1?strtoul(argv[1],0,10):1000000, D=4, B=32, m=0,p,i; int kind=argc>2?atoi(argv[2]):0;
  dg_vertex*perm=malloc(n*4); dg_edge*e=malloc((n*D+n)*sizeof*e);
  for(i=0;i<n;i++)perm[i]=i; for(i=n;i>1;i--){size_t j=r64()%i;dg_vertex t=perm[i-1];perm[i-1]=perm[j];perm[j]=t;}
  for(p=0;p<n;p++)for(i=0;i<D;i++){ if(p+1>=n)break; size_t q=p+1+r64()%(n-1-p); e[m].src=perm[p];e[m].dst=perm[q];e[m].weight=1;m++;}
  if(kind==0) for(p=0;p<n;){size_t len=1+r64()%B,k; if(len>n-p)len=n-p; for(k=0;len>1&&k<len;k++){e[m].src=perm[p+k];e[m].dst=perm[p+(k+1)%len];e[m].weight=1;m++;} p+=len;}
  dg_desc d; memset(&d,0,sizeof d); dg_graph*g; if(dg_create(&d,&g)){printf("create\n");return 1;}
  dg_add_vertices(g,n,NULL); size_t added; if(dg_add_edges(g,e,m,&added)){printf("add %s\n",dg_error_message(g));return 1;}
  dg_sync(g); size_t c=0; dg_scc(g,NULL,&c);
  double t0=now(); dg_scc(g,NULL,&c); double t1=now();
  dg__scc_state*q=(dg__scc_state*)g->dev->mod[DG__MOD_SCC].state;
  printf("n %zu m %zu: dg_scc %zu comps %.1f ms rounds %zu sweeps %zu host %d work %zu chunks %zu\n",n,m,c,t1-t0,q->rounds,q->sweeps,q->slow,q->work,((dg__core_state*)g->dev->mod[DG__MOD_CORE].state)->ec_chunks);
  /* host Tarjan on a CSR */
  uint32_t*row=calloc(n+1,4); int32_t*col=malloc(m*4),*comp=malloc(n*4); size_t nc=0;
  for(i=0;i<m;i++)row[e[i].src+1]++; for(i=0;i<n;i++)row[i+1]+=row[i];
  uint32_t*fill=malloc((n+1)*4); memcpy(fill,row,(n+1)*4); for(i=0;i<m;i++)col[fill[e[i].src]++]=e[i].dst;
  t0=now(); dg__reach_scc(g,n,row,col,comp,&nc); t1=now();
  printf("host Tarjan %zu comps %.1f ms\n",nc,t1-t0);
  dg_destroy(g); return 0;}
