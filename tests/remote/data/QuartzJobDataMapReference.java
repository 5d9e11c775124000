// Writes the reference bytes in quartz-jobdatamap.txt (see its header): Quartz JobDataMaps
// serialized by java.io.ObjectOutputStream, as Quartz's StdJDBCDelegate.serializeObject does.
import org.quartz.JobDataMap;
import java.io.*;
public class QuartzJobDataMapReference {
  static String hex(Object o) throws Exception {
    ByteArrayOutputStream baos = new ByteArrayOutputStream();
    ObjectOutputStream out = new ObjectOutputStream(baos);
    out.writeObject(o); out.flush();
    StringBuilder sb = new StringBuilder();
    for (byte b : baos.toByteArray()) sb.append(String.format("%02x", b & 0xff));
    return sb.toString();
  }
  static JobDataMap m(int p, int s) { JobDataMap d = new JobDataMap(); d.put("projectId", (Object)Integer.valueOf(p)); d.put("scheduleId", (Object)Integer.valueOf(s)); return d; }
  public static void main(String[] a) throws Exception {
    String b = hex(m(7,300));
    System.out.println("a " + hex(m(1,1)));
    System.out.println("b " + b);
    System.out.println("c " + hex(m(123456,2147483647)));
    System.out.println("d " + hex(new JobDataMap()));
    JobDataMap e = new JobDataMap(); e.put("projectId",(Object)Integer.valueOf(7)); e.put("scheduleId",(Object)Integer.valueOf(300)); e.put("schedule",(Object)"{\"id\":300}");
    System.out.println("e " + hex(e));
    JobDataMap r = new JobDataMap(); r.put("scheduleId",(Object)Integer.valueOf(300)); r.put("projectId",(Object)Integer.valueOf(7));
    String rb = hex(r);
    System.out.println("b_reversed " + rb);
    System.out.println("b_reversed_identical_to_b " + rb.equals(b));
    // e with other insertion order
    JobDataMap e2 = new JobDataMap(); e2.put("schedule",(Object)"{\"id\":300}"); e2.put("scheduleId",(Object)Integer.valueOf(300)); e2.put("projectId",(Object)Integer.valueOf(7));
    System.out.println("e_reversed_identical_to_e " + hex(e2).equals(hex(e)));
    // classes of values
    System.out.println("valueClass " + m(7,300).get("projectId").getClass().getName());
  }
}
